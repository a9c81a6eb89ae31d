/*
 * MMV counter updates with libpcp_mmv (PCP 6.0.3): a file with one U64
 * counter is created through the registry API, the value's atom is
 * looked up once, and each operation is one mmv_inc_value(…, 1). The
 * by-name form (mmv_stats_inc) and a plain atomic add are timed too.
 * libpcp_mmv ships no development header, so the few entry points used
 * are declared here from its documented prototypes.
 */
#include <stddef.h>
#include <pcp/pmapi.h>
#include "bench.h"

typedef struct mmv_registry mmv_registry_t;
extern mmv_registry_t *mmv_stats_registry(const char *, int, int);
extern int mmv_stats_add_metric(mmv_registry_t *, const char *, int, int, int, pmUnits, int, const char *, const char *);
extern void *mmv_stats_start(mmv_registry_t *);
extern pmAtomValue *mmv_lookup_value_desc(void *, const char *, const char *);
extern void mmv_inc_value(void *, pmAtomValue *, double);
extern void mmv_stats_inc(void *, const char *, const char *);

static void *maddr;
static pmAtomValue *mav;

int bench_mmv_setup(const char *name)
{
    pmUnits units = { 0 };
    mmv_registry_t *reg = mmv_stats_registry(name, 322, 0);
    if (reg == NULL)
	return -1;
    units.dimCount = 1;
    units.scaleCount = PM_COUNT_ONE;
    if (mmv_stats_add_metric(reg, "counter", 1, PM_TYPE_U64, PM_SEM_COUNTER, units, 0, "bench counter", "") < 0)
	return -2;
    maddr = mmv_stats_start(reg);
    if (maddr == NULL)
	return -3;
    mav = mmv_lookup_value_desc(maddr, "counter", NULL);
    return mav == NULL ? -4 : 0;
}

uint64_t bench_mmv_inc(int n)
{
    for (int k = 0; k < n; k++)
	mmv_inc_value(maddr, mav, 1);
    return mav->ull;
}

uint64_t bench_mmv_inc_byname(int n)
{
    for (int k = 0; k < n; k++)
	mmv_stats_inc(maddr, "counter", NULL);
    return mav->ull;
}

static uint64_t counter;

uint64_t bench_atomic_add(int n)
{
    for (int k = 0; k < n; k++)
	__atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
    return counter;
}
