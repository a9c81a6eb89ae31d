/*
 * Counting allocator: the harness binary defines malloc and friends, so
 * every allocation libpcp (and our C harness) makes in this process goes
 * through here and is counted before being handed to glibc's own
 * allocator. The counters are read around one untimed round to report
 * allocations per operation; the timed rounds pay only two atomic adds.
 */
#include <stddef.h>
#include <stdint.h>
#include "bench.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static uint64_t nalloc, nbytes;

void *malloc(size_t n)
{
    __atomic_add_fetch(&nalloc, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&nbytes, n, __ATOMIC_RELAXED);
    return __libc_malloc(n);
}

void *calloc(size_t k, size_t n)
{
    __atomic_add_fetch(&nalloc, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&nbytes, k * n, __ATOMIC_RELAXED);
    return __libc_calloc(k, n);
}

void *realloc(void *p, size_t n)
{
    __atomic_add_fetch(&nalloc, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&nbytes, n, __ATOMIC_RELAXED);
    return __libc_realloc(p, n);
}

void free(void *p)
{
    __libc_free(p);
}

void bench_malloc_counters(uint64_t *calls, uint64_t *bytes)
{
    *calls = __atomic_load_n(&nalloc, __ATOMIC_RELAXED);
    *bytes = __atomic_load_n(&nbytes, __ATOMIC_RELAXED);
}
