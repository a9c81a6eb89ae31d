/*
 * Label sets with libpcp 6.0.3: __pmParseLabelSet (the parser behind
 * pmGetLabels and pmMergeLabels) on one set, and pmMergeLabels on five
 * texts, lowest precedence first.
 */
#include <stdlib.h>
#include <string.h>
#include <pcp/pmapi.h>
#include "bench.h"

/* Exported by libpcp, declared only in its private header. */
extern int __pmParseLabelSet(const char *, int, int, pmLabelSet **);

uint64_t bench_label_parse(const char *json, int len, int n)
{
    uint64_t sum = 0;
    for (int k = 0; k < n; k++) {
	pmLabelSet *set = NULL;
	if (__pmParseLabelSet(json, len, 0, &set) < 0)
	    return 0;
	sum = (uint64_t)set->nlabels << 32 | (uint32_t)set->jsonlen;
	pmFreeLabelSets(set, 1);
    }
    return sum;
}

static char merged[65536];

uint64_t bench_label_merge(char **texts, int ntexts, int n)
{
    uint64_t sum = 0;
    for (int k = 0; k < n; k++) {
	int len = pmMergeLabels(texts, ntexts, merged, sizeof(merged));
	if (len < 0)
	    return 0;
	sum = len;
	for (int i = 0; i < len; i++)
	    sum = sum * 31 + (unsigned char)merged[i];
    }
    return sum;
}
