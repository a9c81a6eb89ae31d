"""Live fetch loop with python3-pcp, driven by the Go harness.

argv: host, metric-list file. Then one request per stdin line, n: do n
fetches (pmFetch, count every value set's values, pmFreeResult) and answer
"<thread CPU ns> <wall ns> <values in the last fetch> <malloc calls>
<malloc bytes>" (the last two are zero unless the harness's counting
malloc is preloaded). Start-up and
name lookup are outside the timed loop.
"""
import ctypes
import os
import sys
import time

from pcp import pmapi
import cpmapi as c_api


def malloc_counters():
    """Calls and bytes counted by the harness's malloc shim, when it is
    preloaded (LD_PRELOAD, with PYTHONMALLOC=malloc so that every Python
    object goes through malloc); zeros otherwise."""
    if "PERFWIRE_BENCH_COUNT_MALLOC" not in os.environ:
        return 0, 0
    calls, nbytes = ctypes.c_uint64(), ctypes.c_uint64()
    ctypes.CDLL(None).bench_malloc_counters(ctypes.byref(calls), ctypes.byref(nbytes))
    return calls.value, nbytes.value


def main():
    host, listfile = sys.argv[1], sys.argv[2]
    with open(listfile) as f:
        names = [line.strip() for line in f if line.strip()]
    ctx = pmapi.pmContext(c_api.PM_CONTEXT_HOST, host)
    pmids = ctx.pmLookupName(names)
    for line in sys.stdin:
        n = int(line)
        m0 = malloc_counters()
        c0, w0 = time.thread_time_ns(), time.perf_counter_ns()
        total = 0
        for _ in range(n):
            r = ctx.pmFetch(pmids)
            total = 0
            for i in range(r.contents.numpmid):
                total += max(r.contents.get_numval(i), 0)
            ctx.pmFreeResult(r)
        c1, w1 = time.thread_time_ns(), time.perf_counter_ns()
        m1 = malloc_counters()
        print(c1 - c0, w1 - w0, total, m1[0] - m0[0], m1[1] - m0[1], flush=True)


main()
