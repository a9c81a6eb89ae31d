/*
 * Differential oracle for perfwire's labels package: runs label texts
 * through the installed libpcp and prints what it makes of them.
 *
 * Input, one request per line, fields separated by TAB:
 *   P <flags> <json>          parse one set (libpcp's single-parse form)
 *   M <json> <json> ...       merge texts, lowest precedence first
 * Output, one line per request:
 *   P: <json> TAB <nlabels> TAB then per label "nameoff,namelen,valueoff,valuelen,flags"
 *   M: <merged json>
 *   either: "ERR <code>" when libpcp refuses the input.
 *
 * Build: cc -o harness harness.c /usr/lib/libpcp.so.3
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pcp/pmapi.h>

/* Exported by libpcp but declared only in its private header. */
extern int __pmParseLabelSet(const char *, int, int, pmLabelSet **);

#define MAXFIELDS 64

static char line[4 * 65536];
static char out[65536];

int
main(void)
{
    while (fgets(line, sizeof(line), stdin) != NULL) {
	char *fields[MAXFIELDS];
	int nfields = 0;
	size_t len = strlen(line);
	char *p;

	if (len > 0 && line[len - 1] == '\n')
	    line[--len] = '\0';
	for (p = line; nfields < MAXFIELDS; ) {
	    char *tab = strchr(p, '\t');
	    fields[nfields++] = p;
	    if (tab == NULL)
		break;
	    *tab = '\0';
	    p = tab + 1;
	}
	if (nfields >= 3 && strcmp(fields[0], "P") == 0) {
	    pmLabelSet *set = NULL;
	    int flags = (int)strtol(fields[1], NULL, 0);
	    int sts = __pmParseLabelSet(fields[2], (int)strlen(fields[2]), flags, &set);
	    int i;

	    if (sts < 0) {
		printf("ERR %d\n", sts);
	    } else {
		printf("%.*s\t%d", set->jsonlen, set->json, set->nlabels);
		for (i = 0; i < set->nlabels; i++) {
		    pmLabel *l = &set->labels[i];
		    printf("\t%u,%u,%u,%u,%u", l->name, l->namelen, l->value, l->valuelen, l->flags);
		}
		printf("\n");
		pmFreeLabelSets(set, 1);
	    }
	} else if (nfields >= 2 && strcmp(fields[0], "M") == 0) {
	    int sts = pmMergeLabels(&fields[1], nfields - 1, out, sizeof(out));

	    if (sts < 0)
		printf("ERR %d\n", sts);
	    else
		printf("%.*s\n", sts, out);
	} else {
	    printf("ERR bad request\n");
	}
	fflush(stdout);
    }
    return 0;
}
