/*
 * Reading every value of a PCP archive with libpcp 6.0.3, as a client
 * does: an archive context, pmSetMode forwards from the start, pmFetch of
 * the archive's metrics until PM_ERR_EOL, pmExtractValue of every value
 * to its metric's type.
 */
#include <stdlib.h>
#include <string.h>
#include <pcp/pmapi.h>
#include "bench.h"

static char *apath;
static pmID *apmids;
static int *atypes;
static int anpmids;

int bench_archive_setup(const char *path, uint32_t *pmids, int *types, int n)
{
    free(apath);
    apath = strdup(path);
    apmids = (pmID *)pmids;
    atypes = types;
    anpmids = n;
    return 0;
}

uint64_t bench_sum_atom(int type, const pmAtomValue *a); /* c_result.c */

/* fold is c_result.c's checksum of an atom, and an aggregate's length */
static uint64_t fold(int type, const pmAtomValue *a)
{
    if (type == PM_TYPE_AGGREGATE)
        return a->vbp->vlen;
    return bench_sum_atom(type, a);
}

/* one pass over the whole archive; the sum of every value and the count */
uint64_t bench_archive(int n, uint64_t *values)
{
    uint64_t sum = 0;
    *values = 0;
    for (int i = 0; i < n; i++) {
        int ctx = pmNewContext(PM_CONTEXT_ARCHIVE, apath);
        if (ctx < 0)
            return 0;
        struct timespec start = {0, 0};
        pmSetModeHighRes(PM_MODE_FORW, &start, NULL);
        sum = 0;
        *values = 0;
        for (;;) {
            pmResult *r;
            int sts = pmFetch(anpmids, apmids, &r);
            if (sts < 0)
                break;
            for (int j = 0; j < r->numpmid; j++) {
                pmValueSet *vs = r->vset[j];
                int type = atypes[j]; /* the result follows the request's order */
                for (int v = 0; v < vs->numval; v++) {
                    pmAtomValue a;
                    if (pmExtractValue(vs->valfmt, &vs->vlist[v], type, &a, type) < 0)
                        continue;
                    sum += fold(type, &a);
                    if (type == PM_TYPE_STRING)
                        free(a.cp);
                    else if (type == PM_TYPE_AGGREGATE)
                        free(a.vbp);
                    (*values)++;
                }
            }
            pmFreeResult(r);
        }
        pmDestroyContext(ctx);
    }
    return sum;
}
