/*
 * Live fetch loop with libpcp 6.0.3: a host context on pmcd (or on the
 * fake pmcd of the fetch-client figure), the 50 names looked up once,
 * then pmFetch + read every value set's count + pmFreeResult per
 * operation. Each setup makes one more context; a handle names it.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <pcp/pmapi.h>
#include "bench.h"

#define MAXFETCH 8

static struct {
    int ctx, n;
    pmID *pmids;
} fetchers[MAXFETCH];
static int nfetchers;

int bench_fetch_setup(const char *host, char **names, int nnames)
{
    if (nfetchers == MAXFETCH)
	return -1;
    int ctx = pmNewContext(PM_CONTEXT_HOST, host);
    if (ctx < 0)
	return ctx;
    pmID *pmids = calloc(nnames, sizeof(pmID));
    int sts = pmLookupName(nnames, (const char **)names, pmids);
    if (sts < 0)
	return sts;
    fetchers[nfetchers].ctx = ctx;
    fetchers[nfetchers].n = nnames;
    fetchers[nfetchers].pmids = pmids;
    return nfetchers++;
}

uint64_t bench_fetch(int handle, int n)
{
    uint64_t sum = 0;
    /* libpcp's current context is per thread; cgo calls may land on any */
    if (pmUseContext(fetchers[handle].ctx) < 0)
	return 0;
    for (int k = 0; k < n; k++) {
	pmResult *rp;
	if (pmFetch(fetchers[handle].n, fetchers[handle].pmids, &rp) < 0)
	    return 0;
	sum = 0;
	for (int i = 0; i < rp->numpmid; i++)
	    sum += rp->vset[i]->numval > 0 ? rp->vset[i]->numval : 0;
	pmFreeResult(rp);
    }
    return sum;
}

/*
 * The floor under any client of the fetch-client figure: a loop that
 * writes the recorded HIGHRES_FETCH PDU on a blocking socket and reads
 * the reply whole, decoding nothing. path is a unix socket, or NULL for
 * TCP to 127.0.0.1:port. Returns a handle (the descriptor) or -1.
 */

static char rawbuf[1 << 16];

int bench_rawfetch_setup(const char *path, int port, const void *creds, int credlen)
{
    int fd;
    if (path != NULL) {
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	strncpy(a.sun_path, path, sizeof(a.sun_path) - 1);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0)
	    return -1;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
	    return -1;
    } else {
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	int one = 1;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) < 0)
	    return -1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
	    return -1;
    }
    /* pmcd's 20-byte handshake, then our CREDS */
    if (read(fd, rawbuf, 20) != 20 || write(fd, creds, credlen) != credlen)
	return -1;
    return fd;
}

uint64_t bench_rawfetch(int fd, const void *fetch, int fetchlen, int n)
{
    uint64_t sum = 0;
    for (int k = 0; k < n; k++) {
	if (write(fd, fetch, fetchlen) != fetchlen)
	    return 0;
	uint32_t got = 0, need = 12;
	while (got < need) {
	    ssize_t m = read(fd, rawbuf + got, sizeof(rawbuf) - got);
	    if (m <= 0)
		return 0;
	    got += m;
	    if (got >= 12) {
		memcpy(&need, rawbuf, 4);
		need = ntohl(need);
	    }
	}
	sum = got;
    }
    return sum;
}
