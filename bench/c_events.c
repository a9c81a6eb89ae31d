/*
 * Event array unpacking with libpcp 6.0.3: the HIGHRES_RESULT PDU that
 * carries sample.event.records and sample.event.highres_records is
 * decoded once (which puts the arrays in host order, as a client holds
 * them after pmFetch); each operation then unpacks all four arrays with
 * pmUnpackEventRecords / pmUnpackHighResEventRecords, reads every value
 * and frees the results.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <pcp/pmapi.h>
#include "bench.h"

typedef struct {
    struct timespec stamp;
    int numpmid;
    pmValueSet *vset[1];
} bench_hrresult_t;
extern int *__pmFindPDUBuf(int);
extern int __pmDecodeResult(int *, bench_hrresult_t **);
extern int __pmDecodeHighResResult(int *, bench_hrresult_t **);

/* decoded PDUs, kept (and their buffers pinned) for the whole run */
static bench_hrresult_t *evres[8];
static int nevres;

/* bench_events_setup decodes one PDU and returns its handle. Only the
 * value sets are used, which both result layouts place alike. */
int bench_events_setup(const void *pdu, int len, int highres)
{
    int *pb = __pmFindPDUBuf(len);
    int sts;
    if (nevres == 8)
	return -1;
    memcpy(pb, pdu, len);
    pb[0] = ntohl(pb[0]);
    pb[1] = ntohl(pb[1]);
    pb[2] = ntohl(pb[2]);
    sts = highres ? __pmDecodeHighResResult(pb, &evres[nevres]) : __pmDecodeResult(pb, &evres[nevres]);
    return sts < 0 ? sts : nevres++;
}

static uint64_t sum_vset(uint64_t sum, const pmValueSet *vs)
{
    sum = sum * 31 + vs->pmid;
    for (int j = 0; j < vs->numval; j++) {
	if (vs->valfmt == PM_VAL_INSITU)
	    sum = sum * 31 + (uint32_t)vs->vlist[j].value.lval;
	else
	    sum = sum * 31 + (uint64_t)(vs->vlist[j].value.pval->vlen - PM_VAL_HDR_SIZE);
    }
    return sum;
}

/* The two record types differ only in their timestamp's type, so one
 * macro sums either: each record's seconds, then its value sets. */
#define SUM_RECORDS(sum, rs, nr)					\
    for (int r = 0; r < (nr); r++) {					\
	(sum) = (sum) * 31 + (uint64_t)(rs)[r]->timestamp.tv_sec;	\
	for (int v = 0; v < (rs)[r]->numpmid; v++)			\
	    (sum) = sum_vset((sum), (rs)[r]->vset[v]);			\
    }

uint64_t bench_events(int h, int n)
{
    uint64_t sum = 0;
    bench_hrresult_t *res = evres[h];
    for (int k = 0; k < n; k++) {
	sum = 0;
	for (int i = 0; i < res->numpmid; i++) {
	    pmValueSet *vs = res->vset[i];
	    if (vs->numval <= 0 || vs->valfmt == PM_VAL_INSITU)
		continue;
	    for (int j = 0; j < vs->numval; j++) {
		int type = vs->vlist[j].value.pval->vtype;
		if (type == PM_TYPE_EVENT) {
		    pmResult **rs;
		    int nr = pmUnpackEventRecords(vs, j, &rs);
		    if (nr < 0)
			return 0;
		    SUM_RECORDS(sum, rs, nr);
		    if (nr > 0)
			pmFreeEventResult(rs);
		} else if (type == PM_TYPE_HIGHRES_EVENT) {
		    pmHighResResult **rs;
		    int nr = pmUnpackHighResEventRecords(vs, j, &rs);
		    if (nr < 0)
			return 0;
		    SUM_RECORDS(sum, rs, nr);
		    if (nr > 0)
			pmFreeHighResEventResult(rs);
		}
	    }
	}
    }
    return sum;
}
