/*
 * Live fetch loop with libpcp 6.0.3: one host context on pmcd, the
 * 50 names looked up once, then pmFetch + read every value set's count
 * + pmFreeResult per operation.
 */
#include <stdlib.h>
#include <pcp/pmapi.h>
#include "bench.h"

static pmID *fpmids;
static int fn, fctx;

int bench_fetch_setup(const char *host, char **names, int nnames)
{
    int ctx = pmNewContext(PM_CONTEXT_HOST, host);
    if (ctx < 0)
	return ctx;
    fctx = ctx;
    fpmids = calloc(nnames, sizeof(pmID));
    fn = nnames;
    int sts = pmLookupName(nnames, (const char **)names, fpmids);
    return sts < 0 ? sts : 0;
}

uint64_t bench_fetch(int n)
{
    uint64_t sum = 0;
    /* libpcp's current context is per thread; cgo calls may land on any */
    if (pmUseContext(fctx) < 0)
	return 0;
    for (int k = 0; k < n; k++) {
	pmResult *rp;
	if (pmFetch(fn, fpmids, &rp) < 0)
	    return 0;
	sum = 0;
	for (int i = 0; i < rp->numpmid; i++)
	    sum += rp->vset[i]->numval > 0 ? rp->vset[i]->numval : 0;
	pmFreeResult(rp);
    }
    return sum;
}
