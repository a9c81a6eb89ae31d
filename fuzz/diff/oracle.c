/*
 * perfwire differential oracle: hands one PDU (or one label text) to the
 * installed libpcp and writes what libpcp made of it as canonical text,
 * the same text ours.go writes from perfwire's decoders. Our own code,
 * written against the public pmapi.h types; the internal entry points are
 * declared here from their exported signatures (libpcp 6.0.3).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pcp/pmapi.h>
#include "oracle.h"

typedef int32_t pduword;

/* libpcp's internal result: 64-bit seconds and nanoseconds. */
typedef struct {
    int64_t sec;
    int32_t nsec;
} oracle_stamp;
typedef struct {
    oracle_stamp stamp;
    int numpmid;
    pmValueSet *vset[1];
} oracle_result;

extern pduword *__pmFindPDUBuf(int);
extern int __pmUnpinPDUBuf(void *);
extern int __pmDecodeResult(pduword *, oracle_result **);
extern int __pmDecodeHighResResult(pduword *, oracle_result **);
extern void __pmFreeResult(oracle_result *);
extern int __pmDecodeError(pduword *, int *);
extern int __pmDecodeXtendError(pduword *, int *, int *);
extern int __pmDecodeDesc(pduword *, pmDesc *);
extern int __pmDecodeText(pduword *, int *, char **);
extern int __pmDecodeLabel(pduword *, int *, int *, pmLabelSet **, int *);
extern int __pmParseLabelSet(const char *, int, int, pmLabelSet **);
extern int __pmDecodeDescReq(pduword *, pmID *);
extern int __pmDecodeTextReq(pduword *, int *, int *);
extern int __pmDecodeLabelReq(pduword *, int *, int *);

/* libpcp's instance domain answer. */
typedef struct {
    pmInDom indom;
    int numinst;
    int *instlist;
    char **namelist;
} oracle_inresult;
extern int __pmDecodeInstance(pduword *, oracle_inresult **);
extern void __pmFreeInResult(oracle_inresult *);
extern int __pmDecodeFetch(pduword *, int *, void *, int *, pmID **);
extern int __pmDecodeHighResFetch(pduword *, int *, int *, pmID **);
extern int __pmDecodeNameList(pduword *, int *, char ***, int **);
extern int __pmDecodeCreds(pduword *, int *, int *, uint32_t **);
extern int __pmDecodeDescs2(pduword *, int *, pmDesc **);
extern int __pmDecodeInstanceReq(pduword *, pmInDom *, int *, char **);
extern int __pmDecodeIDList(pduword *, int, pmID *, int *);
extern int __pmDecodeIDList2(pduword *, int *, pmID **);
extern int __pmDecodeChildReq(pduword *, char **, int *);
extern int __pmDecodeTraversePMNSReq(pduword *, char **);
extern int __pmDecodeAttr(pduword *, int *, char **, int *);
extern int __pmDecodeProfile(pduword *, int *, pmProfile **);
extern void __pmFreeProfile(pmProfile *);
extern int __pmDecodeLogRequest(const pduword *, int *);
extern int __pmDecodeLogControl(const pduword *, oracle_result **, int *, int *, int *);

/*
 * libpcp's pmlogger status (libpcp.h as shipped with the 6.0.3 sample
 * PMDA): three 64-bit-second timestamps, state, volume, size and six
 * C strings, any of which may be NULL.
 */
typedef struct {
    oracle_stamp start, last, now;
    int state, vol;
    int64_t size;
    char *str[6];	/* pmcd host, fqdn, tz, zoneinfo; pmlogger tz, zoneinfo */
} oracle_logstatus;
extern int __pmDecodeLogStatus(pduword *, oracle_logstatus **);
extern void __pmFreeLogStatus(oracle_logstatus *, int);
/* __pmDecodeLogStatus reads the layout of the last channel's version. */
extern int __pmSetVersionIPC(int, int);
extern int __pmVersionIPC(int);

/* out is a bounded text buffer; overflow marks the text truncated. */
typedef struct {
    char *p;
    int len, cap, over;
} outbuf;

static void
put(outbuf *o, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (o->over)
	return;
    va_start(ap, fmt);
    n = vsnprintf(o->p + o->len, o->cap - o->len, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= o->cap - o->len) {
	o->over = 1;
	return;
    }
    o->len += n;
}

/*
 * libpcp hands back the extended ERROR's datum and TEXT's ident as the
 * raw wire word (not converted to host order): print its bytes as a
 * big-endian number, as perfwire reads them.
 */
static uint32_t
rawword(int v)
{
    unsigned char b[4];

    memcpy(b, &v, 4);
    return ((uint32_t)b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3];
}

static void
puthex(outbuf *o, const unsigned char *b, int n)
{
    int i;

    for (i = 0; i < n; i++)
	put(o, "%02x", b[i]);
}

/*
 * A value block's contents by type, after libpcp has converted them to
 * host order: numbers as numbers, everything else as bytes.
 */
static void
putblock(outbuf *o, const pmValueBlock *vb)
{
    int n = (int)vb->vlen - PM_VAL_HDR_SIZE;

    put(o, " %u %u ", (unsigned)vb->vtype, (unsigned)vb->vlen);
    if (n < 0) {
	put(o, "?");
	return;
    }
    switch (vb->vtype) {
    case PM_TYPE_32: case PM_TYPE_U32: case PM_TYPE_FLOAT:
	if (n == 4) {
	    uint32_t v;
	    memcpy(&v, vb->vbuf, 4);
	    put(o, "n%08x", v);
	    return;
	}
	break;
    case PM_TYPE_64: case PM_TYPE_U64: case PM_TYPE_DOUBLE:
	if (n == 8) {
	    uint64_t v;
	    memcpy(&v, vb->vbuf, 8);
	    put(o, "n%016llx", (unsigned long long)v);
	    return;
	}
	break;
    }
    put(o, "x");
    puthex(o, (const unsigned char *)vb->vbuf, n);
}

static void
putvalueset(outbuf *o, const pmValueSet *vs, int unpacking);

/* The records of one event array, as pmUnpack*EventRecords sees them. */
static void
putevents(outbuf *o, pmValueSet *vs, int j)
{
    int n, i, k;

    if (vs->vlist[j].value.pval->vtype == PM_TYPE_EVENT) {
	pmResult **rr = NULL;
	n = pmUnpackEventRecords(vs, j, &rr);
	if (n < 0) {
	    put(o, "U ERR\n");
	    return;
	}
	put(o, "U %d\n", n);
	for (i = 0; i < n; i++) {
	    put(o, "u %lld %lld %d\n", (long long)rr[i]->timestamp.tv_sec,
		(long long)rr[i]->timestamp.tv_usec * 1000, rr[i]->numpmid);
	    for (k = 0; k < rr[i]->numpmid; k++)
		putvalueset(o, rr[i]->vset[k], 1);
	}
	pmFreeEventResult(rr);
    } else {
	pmHighResResult **rr = NULL;
	n = pmUnpackHighResEventRecords(vs, j, &rr);
	if (n < 0) {
	    put(o, "U ERR\n");
	    return;
	}
	put(o, "U %d\n", n);
	for (i = 0; i < n; i++) {
	    put(o, "u %lld %lld %d\n", (long long)rr[i]->timestamp.tv_sec,
		(long long)rr[i]->timestamp.tv_nsec, rr[i]->numpmid);
	    for (k = 0; k < rr[i]->numpmid; k++)
		putvalueset(o, rr[i]->vset[k], 1);
	}
	pmFreeHighResEventResult(rr);
    }
}

static void
putvalueset(outbuf *o, const pmValueSet *vs, int unpacking)
{
    int j;

    put(o, "S %08x %d %d\n", vs->pmid, vs->numval, vs->numval > 0 ? vs->valfmt : 0);
    for (j = 0; j < vs->numval; j++) {
	const pmValue *v = &vs->vlist[j];
	if (vs->valfmt == PM_VAL_INSITU) {
	    put(o, "I %d %08x\n", v->inst, (uint32_t)v->value.lval);
	    continue;
	}
	put(o, "B %d", v->inst);
	if (!unpacking && (v->value.pval->vtype == PM_TYPE_EVENT ||
			   v->value.pval->vtype == PM_TYPE_HIGHRES_EVENT)) {
	    put(o, " %u %u\n", (unsigned)v->value.pval->vtype, (unsigned)v->value.pval->vlen);
	    putevents(o, (pmValueSet *)vs, j);
	    continue;
	}
	putblock(o, v->value.pval);
	put(o, "\n");
    }
}

/* A C string from libpcp as hex, or "-" for NULL. */
static void
putcstr(outbuf *o, const char *p)
{
    if (p == NULL) {
	put(o, "-");
	return;
    }
    put(o, "=");
    puthex(o, (const unsigned char *)p, (int)strlen(p));
}

/* Bytes past len that a decoder may read (libpcp does not always stop
 * at len): zeros, so such reads are deterministic. */
#define SLACK 1024

static int
decode_pdu(outbuf *o, const unsigned char *b, int len)
{
    pduword *pdu;
    int type, sts, i, j;

    if (len < 12)
	return -1;
    type = (b[4] << 24) | (b[5] << 16) | (b[6] << 8) | b[7];
    pdu = __pmFindPDUBuf(len + SLACK);
    if (pdu == NULL)
	return -1;
    memset(pdu, 0, len + SLACK);
    memcpy(pdu, b, len);
    /* __pmGetPDU hands decoders a header already in host order. */
    pdu[0] = len;
    pdu[1] = type;
    pdu[2] = (b[8] << 24) | (b[9] << 16) | (b[10] << 8) | b[11];
    switch (type) {
    case 0x7001: case 0x7015: {	/* RESULT, HIGHRES_RESULT */
	oracle_result *r = NULL;
	sts = type == 0x7001 ? __pmDecodeResult(pdu, &r) : __pmDecodeHighResResult(pdu, &r);
	if (sts < 0)
	    break;
	put(o, "R %lld %d %d\n", (long long)r->stamp.sec, r->stamp.nsec, r->numpmid);
	for (i = 0; i < r->numpmid; i++)
	    putvalueset(o, r->vset[i], 0);
	__pmFreeResult(r);
	break;
    }
    case 0x7000: {		/* ERROR */
	int code = 0, datum = 0;
	if (len == 20) {
	    sts = __pmDecodeXtendError(pdu, &code, &datum);
	    if (sts >= 0)
		put(o, "E %d %08x\n", code, rawword(datum));
	} else {
	    sts = __pmDecodeError(pdu, &code);
	    if (sts >= 0)
		put(o, "E %d\n", code);
	}
	break;
    }
    case 0x7005: {		/* DESC */
	pmDesc d;
	sts = __pmDecodeDesc(pdu, &d);
	if (sts >= 0) {
	    uint32_t units;
	    memcpy(&units, &d.units, 4);
	    put(o, "D %08x %d %08x %d %08x\n", d.pmid, d.type, d.indom, d.sem, units);
	}
	break;
    }
    case 0x7009: {		/* TEXT */
	int ident = 0;
	char *text = NULL;
	sts = __pmDecodeText(pdu, &ident, &text);
	if (sts >= 0) {
	    put(o, "T %08x ", rawword(ident));
	    puthex(o, (const unsigned char *)text, (int)strlen(text));
	    put(o, "\n");
	    free(text);
	}
	break;
    }
    case 0x7013: {		/* LABEL */
	int ident = 0, ltype = 0, nsets = 0;
	pmLabelSet *sets = NULL;
	sts = __pmDecodeLabel(pdu, &ident, &ltype, &sets, &nsets);
	if (sts < 0)
	    break;
	put(o, "L %08x %d %d\n", (uint32_t)ident, ltype, nsets);
	for (i = 0; i < nsets; i++) {
	    pmLabelSet *s = &sets[i];
	    put(o, "l %d %d ", (int)s->inst, s->nlabels);
	    puthex(o, (const unsigned char *)s->json, s->json ? (int)s->jsonlen : 0);
	    put(o, "\n");
	    for (j = 0; j < s->nlabels; j++) {
		pmLabel *l = &s->labels[j];
		put(o, "e %u %u %u %u %u\n", l->name, l->namelen, l->flags, l->value, l->valuelen);
	    }
	}
	pmFreeLabelSets(sets, nsets);
	break;
    }
    case 0x7004: {		/* DESC_REQ */
	pmID id;
	sts = __pmDecodeDescReq(pdu, &id);
	if (sts >= 0)
	    put(o, "Q %08x\n", id);
	break;
    }
    case 0x7008: case 0x7012: {	/* TEXT_REQ, LABEL_REQ */
	int ident = 0, kind = 0;
	sts = type == 0x7008 ? __pmDecodeTextReq(pdu, &ident, &kind) : __pmDecodeLabelReq(pdu, &ident, &kind);
	if (sts >= 0)
	    put(o, "Q %08x %d\n", (uint32_t)ident, kind);
	break;
    }
    case 0x7007: {		/* INSTANCE */
	oracle_inresult *r = NULL;
	sts = __pmDecodeInstance(pdu, &r);
	if (sts < 0)
	    break;
	put(o, "N %08x %d\n", r->indom, r->numinst);
	for (i = 0; i < r->numinst; i++) {
	    const char *name = r->namelist ? r->namelist[i] : NULL;
	    put(o, "n %d ", r->instlist ? r->instlist[i] : -1);
	    if (name == NULL || name[0] == '\0')
		put(o, "-");
	    else
		puthex(o, (const unsigned char *)name, (int)strlen(name));
	    put(o, "\n");
	}
	__pmFreeInResult(r);
	break;
    }
    case 0x7003: case 0x7014: {	/* FETCH, HIGHRES_FETCH */
	int ctx = 0, n = 0;
	int64_t when[2];	/* the legacy timestamp, written and ignored */
	pmID *ids = NULL;
	sts = type == 0x7003 ? __pmDecodeFetch(pdu, &ctx, when, &n, &ids) : __pmDecodeHighResFetch(pdu, &ctx, &n, &ids);
	if (sts < 0)
	    break;
	put(o, "F %d %d\n", ctx, n);
	for (i = 0; i < n; i++)
	    put(o, "f %08x\n", ids[i]);
	break;
    }
    case 0x700e: {		/* PMNS_NAMES */
	int n = 0, *stat = NULL;
	char **names = NULL;
	sts = __pmDecodeNameList(pdu, &n, &names, &stat);
	if (sts < 0)
	    break;
	put(o, "M %d %d\n", n, stat != NULL);
	for (i = 0; i < n; i++) {
	    put(o, "m %d ", stat ? stat[i] : 0);
	    puthex(o, (const unsigned char *)names[i], (int)strlen(names[i]));
	    put(o, "\n");
	}
	free(names);
	free(stat);
	break;
    }
    case 0x700c: {		/* CREDS */
	int sender = 0, n = 0;
	uint32_t *creds = NULL;
	sts = __pmDecodeCreds(pdu, &sender, &n, &creds);
	if (sts < 0)
	    break;
	put(o, "C %d\n", n);
	for (i = 0; i < n; i++)
	    put(o, "c %08x\n", creds[i]);
	free(creds);
	break;
    }
    case 0x7006: {		/* INSTANCE_REQ */
	pmInDom indom = 0;
	int inst = 0;
	char *name = NULL;
	sts = __pmDecodeInstanceReq(pdu, &indom, &inst, &name);
	if (sts < 0)
	    break;
	put(o, "Y %08x %d ", indom, inst);
	if (name == NULL || name[0] == '\0')
	    put(o, "-");
	else
	    puthex(o, (const unsigned char *)name, (int)strlen(name));
	put(o, "\n");
	free(name);
	break;
    }
    case 0x7017: {		/* DESCS */
	int n = 0;
	pmDesc *d = NULL;
	sts = __pmDecodeDescs2(pdu, &n, &d);
	if (sts < 0)
	    break;
	put(o, "X %d\n", n);
	for (i = 0; i < n; i++) {
	    uint32_t units;
	    memcpy(&units, &d[i].units, 4);
	    put(o, "D %08x %d %08x %d %08x\n", d[i].pmid, d[i].type, d[i].indom, d[i].sem, units);
	}
	free(d);
	break;
    }
    case 0x7016: {		/* DESC_IDS */
	int n = 0;
	pmID *ids = NULL;
	sts = __pmDecodeIDList2(pdu, &n, &ids);
	if (sts < 0)
	    break;
	put(o, "J -1 %d\n", n);
	for (i = 0; i < n; i++)
	    put(o, "f %08x\n", ids[i]);
	free(ids);
	break;
    }
    case 0x700d: {		/* PMNS_IDS */
	/* The caller states how many ids it expects; as a client would,
	 * take the count the PDU announces. Room for len/4 ids is enough:
	 * a larger count cannot match len and is refused before use. */
	int want = len >= 20 ? (int)((b[16] << 24) | (b[17] << 16) | (b[18] << 8) | b[19]) : 0;
	int st = 0;
	pmID *ids = calloc(len / 4 + 1, sizeof(pmID));
	if (ids == NULL) {
	    sts = -1;
	    break;
	}
	sts = __pmDecodeIDList(pdu, want, ids, &st);
	if (sts >= 0) {
	    put(o, "J %d %d\n", st, want);
	    for (i = 0; i < want; i++)
		put(o, "f %08x\n", ids[i]);
	}
	free(ids);
	break;
    }
    case 0x700f: case 0x7010: {	/* PMNS_CHILD, PMNS_TRAVERSE */
	char *name = NULL;
	int subtype = 0;
	if (type == 0x700f)
	    sts = __pmDecodeChildReq(pdu, &name, &subtype);
	else
	    sts = __pmDecodeTraversePMNSReq(pdu, &name);
	if (sts < 0)
	    break;
	if (type == 0x700f)
	    put(o, "K %d ", subtype);
	else
	    put(o, "K - ");
	putcstr(o, name);
	put(o, "\n");
	free(name);
	break;
    }
    case 0x7011: {		/* ATTR */
	int attr = 0, vlen = 0;
	char *value = NULL;	/* points into the PDU */
	sts = __pmDecodeAttr(pdu, &attr, &value, &vlen);
	if (sts < 0)
	    break;
	put(o, "A %d %d ", attr, vlen);
	if (value != NULL)
	    puthex(o, (const unsigned char *)value, vlen);
	put(o, "\n");
	break;
    }
    case 0x7002: {		/* PROFILE */
	int ctx = 0;
	pmProfile *p = NULL;
	sts = __pmDecodeProfile(pdu, &ctx, &p);
	if (sts < 0)
	    break;
	put(o, "P %d %d %d\n", ctx, p->state, p->profile_len);
	for (i = 0; i < p->profile_len; i++) {
	    pmInDomProfile *e = &p->profile[i];
	    put(o, "p %08x %d %d\n", e->indom, e->state, e->instances_len);
	    for (j = 0; j < e->instances_len; j++)
		put(o, "i %d\n", e->instances[j]);
	}
	__pmFreeProfile(p);
	break;
    }
    case 0x8002: {		/* LOG_REQUEST */
	int req = 0;
	sts = __pmDecodeLogRequest(pdu, &req);
	if (sts >= 0)
	    put(o, "G %d\n", req);
	break;
    }
    case 0x8000: {		/* LOG_CONTROL */
	oracle_result *r = NULL;
	int control = 0, state = 0, delta = 0;
	sts = __pmDecodeLogControl(pdu, &r, &control, &state, &delta);
	if (sts < 0)
	    break;
	put(o, "O %d %d %d %d\n", control, state, delta, r->numpmid);
	for (i = 0; i < r->numpmid; i++) {
	    pmValueSet *vs = r->vset[i];
	    put(o, "S %08x %d\n", vs->pmid, vs->numval);
	    for (j = 0; j < vs->numval; j++)
		put(o, "I %d %08x\n", vs->vlist[j].inst, (uint32_t)vs->vlist[j].value.lval);
	}
	__pmFreeResult(r);
	break;
    }
    case 0x8001: case 0x8003: {	/* LOG_STATUS_V2, LOG_STATUS */
	oracle_logstatus *ls = NULL;
	/* as pmlc does once pmlogger has announced its version */
	__pmSetVersionIPC(0, type == 0x8003 ? 3 : 2);
	(void)__pmVersionIPC(0);
	sts = __pmDecodeLogStatus(pdu, &ls);
	if (sts < 0)
	    break;
	put(o, "Z %lld %d %lld %d %lld %d %d %d %lld", (long long)ls->start.sec, ls->start.nsec,
	    (long long)ls->last.sec, ls->last.nsec, (long long)ls->now.sec, ls->now.nsec,
	    ls->state, ls->vol, (long long)ls->size);
	for (i = 0; i < 6; i++) {
	    put(o, " ");
	    putcstr(o, ls->str[i]);
	}
	put(o, "\n");
	__pmFreeLogStatus(ls, 1);
	break;
    }
    default:
	sts = PM_ERR_NYI;
	put(o, "unsupported\n");
    }
    __pmUnpinPDUBuf(pdu);
    return sts < 0 ? -1 : 0;
}

static int
parse_labels(outbuf *o, const unsigned char *b, int len)
{
    pmLabelSet *set = NULL;
    char *text = malloc(len + 1);
    int sts;

    if (text == NULL)
	return -1;
    memcpy(text, b, len);
    text[len] = '\0';
    sts = __pmParseLabelSet(text, len, 0, &set);
    free(text);
    if (sts < 0)
	return -1;
    put(o, "P %d\n", set->nlabels);
    pmFreeLabelSets(set, 1);
    return 0;
}

int
oracle_run(int kind, const unsigned char *b, int len, char *out, int outcap)
{
    outbuf o = { out, 0, outcap, 0 };
    int sts;

    out[0] = '\0';
    sts = kind == ORACLE_PDU ? decode_pdu(&o, b, len) : parse_labels(&o, b, len);
    if (sts < 0)
	return -1;
    if (o.over)
	return -2;
    return o.len;
}
