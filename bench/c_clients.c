/*
 * Many clients with libpcp 6.0.3: one thread per client, each with its
 * own host context, fetching the same metrics in a loop until a deadline
 * and keeping the latency of each fetch (the last LAT_KEEP of them).
 * The contexts are created one after the other before any thread starts,
 * as the Go side dials, and all threads start fetching together: 256
 * threads calling pmNewContext at once time out (PM_ERR_TIMEOUT).
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <pcp/pmapi.h>
#include "bench.h"

static pthread_barrier_t ready;
static int fail_phase; /* 1: pmNewContext failed first, 2: pmFetch */
static double start_deadline_span;
static double deadline;

struct client {
    pthread_t tid;
    int ctx;
    uint32_t *pmids;
    int npmids;
    long fetches;
    int err;
    int64_t *lat; /* LAT_KEEP entries, a ring */
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *client_run(void *arg)
{
    struct client *c = arg;
    /* a context's handle works in any thread; current is per thread */
    int ctx = pmUseContext(c->ctx) < 0 ? -1 : c->ctx;
    /* the last thread to arrive sets the deadline for all */
    if (pthread_barrier_wait(&ready) == PTHREAD_BARRIER_SERIAL_THREAD)
	deadline = now() + start_deadline_span;
    pthread_barrier_wait(&ready);
    if (ctx < 0) {
	c->err = PM_ERR_NOCONTEXT;
	return NULL;
    }
    while (now() < deadline) {
	pmResult *rp;
	double t0 = now();
	int sts = pmFetch(c->npmids, (pmID *)c->pmids, &rp);
	if (sts < 0) {
	    c->err = sts;
	    __sync_val_compare_and_swap(&fail_phase, 0, 2);
	    break;
	}
	pmFreeResult(rp);
	c->lat[c->fetches % BENCH_LAT_KEEP] = (int64_t)((now() - t0) * 1e9);
	c->fetches++;
    }
    return NULL;
}

/*
 * bench_clients runs n clients for seconds; it returns the fetches done
 * in all, or a negative PCP error; lat receives n × BENCH_LAT_KEEP
 * latencies in ns (0 where a client did fewer fetches).
 */
long bench_clients(const char *host, uint32_t *pmids, int npmids, int n, double seconds, int64_t *lat)
{
    struct client *cs = calloc(n, sizeof(*cs));
    long total = 0;
    int err = 0;
    start_deadline_span = seconds;
    fail_phase = 0;
    pthread_barrier_init(&ready, NULL, n);
    for (int i = 0; i < n; i++) {
	cs[i] = (struct client){.pmids = pmids, .npmids = npmids,
	    .lat = lat + (size_t)i * BENCH_LAT_KEEP};
	cs[i].ctx = pmNewContext(PM_CONTEXT_HOST, host);
	if (cs[i].ctx < 0) {
	    fail_phase = 1;
	    err = cs[i].ctx;
	    for (int j = 0; j < i; j++)
		pmDestroyContext(cs[j].ctx);
	    free(cs);
	    return err;
	}
    }
    for (int i = 0; i < n; i++)
	if (pthread_create(&cs[i].tid, NULL, client_run, &cs[i]) != 0)
	    abort(); /* the barrier would wait for the missing thread forever */
    for (int i = 0; i < n; i++) {
	pthread_join(cs[i].tid, NULL);
	total += cs[i].fetches;
	if (cs[i].err < 0 && err == 0)
	    err = cs[i].err;
	pmDestroyContext(cs[i].ctx);
    }
    pthread_barrier_destroy(&ready);
    free(cs);
    return err < 0 ? err : total;
}

/* bench_lookup resolves names once, for every client to share. */
int bench_lookup(const char *host, char **names, int n, uint32_t *out)
{
    int ctx = pmNewContext(PM_CONTEXT_HOST, host);
    if (ctx < 0)
	return ctx;
    int sts = pmLookupName(n, (const char **)names, (pmID *)out);
    pmDestroyContext(ctx);
    return sts < 0 ? sts : 0;
}

/* bench_clients_phase says where the last run's first failure was. */
int bench_clients_phase(void) { return fail_phase; }
