"""Live fetch loop with python3-pcp, driven by the Go harness.

argv: host, metric-list file. Then one request per stdin line, n: do n
fetches (pmFetch, count every value set's values, pmFreeResult) and answer
"<thread CPU ns> <wall ns> <values in the last fetch>". Start-up and
name lookup are outside the timed loop.
"""
import sys
import time

from pcp import pmapi
import cpmapi as c_api


def main():
    host, listfile = sys.argv[1], sys.argv[2]
    with open(listfile) as f:
        names = [line.strip() for line in f if line.strip()]
    ctx = pmapi.pmContext(c_api.PM_CONTEXT_HOST, host)
    pmids = ctx.pmLookupName(names)
    for line in sys.stdin:
        n = int(line)
        c0, w0 = time.thread_time_ns(), time.perf_counter_ns()
        total = 0
        for _ in range(n):
            r = ctx.pmFetch(pmids)
            total = 0
            for i in range(r.contents.numpmid):
                total += max(r.contents.get_numval(i), 0)
            ctx.pmFreeResult(r)
        c1, w1 = time.thread_time_ns(), time.perf_counter_ns()
        print(c1 - c0, w1 - w0, total, flush=True)


main()
