/*
 * The C peer of the pmda figure: a daemon PMDA on libpcp_pmda 6.0.3 that
 * pmcd starts over a pipe, serving the simple-style shape of the figure:
 * 100 metrics (bench.c.m000 ... m099), each with one value for each of the
 * 100 instances of one instance domain. The metrics cycle through U64,
 * U32 and DOUBLE, even items counters and odd items instant values, and a
 * value is item*1000 + instance, so the Go peer (pmdago.go) serves the
 * same numbers and the client reads the same bytes from both.
 *
 * The harness builds this file as its own program with
 * -DPERFWIRE_PMDA_MAIN; in the cgo build of the bench package it is empty.
 */
#ifdef PERFWIRE_PMDA_MAIN
#include <stdio.h>
#include <stdlib.h>
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#define NMETRICS 100
#define NINST 100

static pmdaInstid insts[NINST];
static pmdaIndom indoms[] = { { 0, NINST, insts } };
static pmdaMetric metrics[NMETRICS];

static int fetch(pmdaMetric *m, unsigned int inst, pmAtomValue *atom)
{
    unsigned int item = pmID_item(m->m_desc.pmid);
    if (item >= NMETRICS)
	return PM_ERR_PMID;
    if (inst >= NINST)
	return PM_ERR_INST;
    uint64_t v = (uint64_t)item * 1000 + inst;
    switch (m->m_desc.type) {
    case PM_TYPE_U64:
	atom->ull = v;
	break;
    case PM_TYPE_U32:
	atom->ul = (uint32_t)v;
	break;
    default:
	atom->d = (double)v;
    }
    return 1;
}

int main(int argc, char **argv)
{
    static const int types[3] = { PM_TYPE_U64, PM_TYPE_U32, PM_TYPE_DOUBLE };
    pmdaInterface dispatch;
    int domain = argc > 1 ? atoi(argv[1]) : 490;

    for (int i = 0; i < NINST; i++) {
	char *name = malloc(8);
	snprintf(name, 8, "i%03d", i);
	insts[i].i_inst = i;
	insts[i].i_name = name;
    }
    for (int i = 0; i < NMETRICS; i++) {
	metrics[i].m_user = NULL;
	metrics[i].m_desc.pmid = PMDA_PMID(0, i);
	metrics[i].m_desc.type = types[i % 3];
	metrics[i].m_desc.indom = 0;
	metrics[i].m_desc.sem = i % 2 == 0 ? PM_SEM_COUNTER : PM_SEM_INSTANT;
	pmUnits u = PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE);
	metrics[i].m_desc.units = u;
    }
    pmSetProgname(argv[0]);
    pmdaDaemon(&dispatch, PMDA_INTERFACE_7, (char *)pmGetProgname(), domain, NULL, NULL);
    pmdaSetFetchCallBack(&dispatch, fetch);
    pmdaInit(&dispatch, indoms, 1, metrics, NMETRICS);
    pmdaConnect(&dispatch);
    pmdaMain(&dispatch);
    return 0;
}
#endif
