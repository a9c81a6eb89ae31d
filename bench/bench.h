/* Entry points of the C side of the benchmarks (our own code). */
#ifndef PERFWIRE_BENCH_H
#define PERFWIRE_BENCH_H
#include <stdint.h>

void bench_malloc_counters(uint64_t *calls, uint64_t *bytes);

/* memory-copy ceiling */
uint64_t bench_memcpy(const void *src, void *dst, int len, int n);

/* RESULT decode + pmExtractValue of every value */
int bench_result_setup(const void *pdu, int len, int highres);
uint64_t bench_result(int n);
uint64_t bench_result_copyonly(int n);

/* event array unpack */
int bench_events_setup(const void *pdu, int len, int highres);
uint64_t bench_events(int handle, int n);

/* labels */
uint64_t bench_label_parse(const char *json, int len, int n);
uint64_t bench_label_merge(char **texts, int ntexts, int n);

/* many clients (c_clients.c) */
#define BENCH_LAT_KEEP 4096
long bench_clients(const char *host, uint32_t *pmids, int npmids, int n, double seconds, int64_t *lat);
int bench_lookup(const char *host, char **names, int n, uint32_t *out);
int bench_clients_phase(void);

/* live fetch (c_fetch.c): setup returns a handle (a context) or a negative error */
int bench_fetch_setup(const char *host, char **names, int nnames);
uint64_t bench_fetch(int handle, int n);
int bench_rawfetch_setup(const char *path, int port, const void *creds, int credlen);
uint64_t bench_rawfetch(int fd, const void *fetch, int fetchlen, int n);

/* MMV */
int bench_mmv_setup(const char *name);
uint64_t bench_mmv_inc(int n);
uint64_t bench_mmv_inc_byname(int n);
uint64_t bench_atomic_add(int n);
/* PCP archive read (c_archive.c) */
int bench_archive_setup(const char *path, uint32_t *pmids, int *types, int n);
uint64_t bench_archive(int n, uint64_t *values);
#endif
