/*
 * RESULT PDU decode with libpcp 6.0.3, then pmExtractValue of every value
 * to its own type, as a client does after pmFetch. Each operation does
 * what libpcp's receive path does with a PDU: take a PDU buffer, fill it
 * (memcpy here, read(2) there; libpcp decodes in place, so the buffer
 * must be fresh), decode, extract, free the result and unpin the buffer.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <pcp/pmapi.h>
#include "bench.h"

/*
 * libpcp exports these but declares them only in its private header.
 * The decoded result is libpcp's internal result; in 6.0.3 on x86-64 it
 * holds a 16-byte timestamp, numpmid at offset 16 and the value set
 * pointers from offset 24 (checked by decoding and reading numpmid).
 */
typedef struct {
    struct timespec stamp;
    int numpmid;
    pmValueSet *vset[1];
} bench_result_t;
extern int *__pmFindPDUBuf(int);
extern int __pmUnpinPDUBuf(void *);
extern int __pmDecodeResult(int *, bench_result_t **);
extern int __pmDecodeHighResResult(int *, bench_result_t **);
extern void __pmFreeResult(bench_result_t *);

static const void *rpdu;
static int rlen;
static int (*decode)(int *, bench_result_t **);

int bench_result_setup(const void *pdu, int len, int highres)
{
    rpdu = pdu;
    rlen = len;
    decode = highres ? __pmDecodeHighResResult : __pmDecodeResult;
    return 0;
}

/* bench_sum_atom folds one extracted atom into the checksum the Go side also computes. */
uint64_t bench_sum_atom(int type, const pmAtomValue *a)
{
    switch (type) {
    case PM_TYPE_32: return (uint64_t)(int64_t)a->l;
    case PM_TYPE_U32: return (uint64_t)a->ul;
    case PM_TYPE_64: return (uint64_t)a->ll;
    case PM_TYPE_U64: return a->ull;
    case PM_TYPE_DOUBLE: { uint64_t u; memcpy(&u, &a->d, 8); return u; }
    case PM_TYPE_FLOAT: { uint32_t u; memcpy(&u, &a->f, 4); return u; }
    case PM_TYPE_STRING: return strlen(a->cp);
    }
    return 0;
}

uint64_t bench_result(int n)
{
    uint64_t sum = 0;
    for (int k = 0; k < n; k++) {
	bench_result_t *res;
	int *pb = __pmFindPDUBuf(rlen);
	memcpy(pb, rpdu, rlen);
	/* __pmGetPDU hands decoders the header in host order */
	pb[0] = ntohl(pb[0]);
	pb[1] = ntohl(pb[1]);
	pb[2] = ntohl(pb[2]);
	if (decode(pb, &res) < 0) {
	    __pmUnpinPDUBuf(pb);
	    return 0;
	}
	sum = 0;
	for (int i = 0; i < res->numpmid; i++) {
	    pmValueSet *vs = res->vset[i];
	    for (int j = 0; j < vs->numval; j++) {
		pmAtomValue a;
		int type = vs->valfmt == PM_VAL_INSITU ? PM_TYPE_32 : vs->vlist[j].value.pval->vtype;
		if (pmExtractValue(vs->valfmt, &vs->vlist[j], type, &a, type) < 0)
		    return 0;
		sum = sum * 31 + bench_sum_atom(type, &a);
		if (type == PM_TYPE_STRING)
		    free(a.cp);
	    }
	}
	__pmUnpinPDUBuf(pb);
	__pmFreeResult(res);
    }
    return sum;
}

/* The buffer and copy alone, to show what part of the time they are. */
uint64_t bench_result_copyonly(int n)
{
    uint64_t sum = 0;
    for (int k = 0; k < n; k++) {
	int *pb = __pmFindPDUBuf(rlen);
	memcpy(pb, rpdu, rlen);
	sum += (uint32_t)pb[rlen / 8];
	__pmUnpinPDUBuf(pb);
    }
    return sum;
}

uint64_t bench_memcpy(const void *src, void *dst, int len, int n)
{
    uint64_t sum = 0;
    for (int k = 0; k < n; k++) {
	memcpy(dst, src, len);
	__asm__ volatile("" : : "r"(dst) : "memory");
	sum += ((const unsigned char *)dst)[k % len];
    }
    return sum;
}
