package main

/*
#include "bench.h"
*/
import "C"

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pmapi"
)

// clientCounts are the numbers of concurrent clients of the curve. Issue
// 19 asks for 1,024, but pmcd 6.0.3 watches its clients with select(2):
// a client socket whose descriptor reaches FD_SETSIZE (1024) makes glibc
// abort pmcd ("bit out of range 0 - FD_SETSIZE on fd_set"), which was
// seen here at about 1,000 connections (pmcd holds ~24 descriptors of its
// own). The curve stops at 768, well below the crash.
var clientCounts = []int{1, 16, 256, maxClients}

const maxClients = 768

// idleGoal is the most memory an idle connection may cost;
// idleConns is how many are opened to measure it, quick run or not.
const (
	idleGoal  = 16 << 10
	idleConns = maxClients
)

type clientRun struct {
	fetches int64
	secs    float64
	p99     time.Duration
	err     string
}

// figClients runs N concurrent clients, each on its own connection to
// pmcd, fetching the 50 metrics in a loop: perfwire goroutines with
// pmapi.Client beside libpcp threads with a context each. It also
// measures what an idle pmapi connection costs.
func figClients(cfg Config, quick bool) Figure {
	f := Figure{
		ID:    "clients",
		Title: "many clients fetching from pmcd at once (testdata/fetch-metrics.txt: 50 sample metrics)",
		Unit:  "run of N clients, each on its own connection, fetching in a loop for a fixed time",
		Goal:  "throughput and p99 latency as a curve over 1, 16, 256 and 1,024 (here 768: pmcd aborts near 1,000) clients beside C libpcp threads; an idle connection ≤ 16 KB",
	}
	fail := func(msg string) Figure {
		f.Stats = append(f.Stats, Stat{Name: "clients figure setup", Err: msg})
		return f
	}
	names, err := readNames("testdata/fetch-metrics.txt")
	if err != nil {
		return fail(err.Error())
	}
	ctx := context.Background()
	probe, err := pmapi.Dial(ctx, pmcdAddr, pmapi.Options{})
	if err != nil {
		return fail("pmcd not reachable (start it: bash scripts/pcp-up.sh): " + err.Error())
	}
	ids, err := probe.LookupName(ctx, names...)
	probe.Close()
	if err != nil {
		return fail(err.Error())
	}
	cids := make([]C.uint32_t, len(names))
	if rc := C.bench_lookup(C.CString("127.0.0.1"), cStrings(names), C.int(len(names)), &cids[0]); rc < 0 {
		return fail(fmt.Sprintf("libpcp lookup failed: %d", rc))
	}
	counts, dur := clientCounts, 3*time.Second
	if quick {
		counts, dur = clientCounts[:2], 200*time.Millisecond
	}
	var md strings.Builder
	fmt.Fprintf(&md, "Each run lasts %s; a client fetches the 50 metrics, waits for the reply, and fetches again. "+
		"p99 is over each client's last %d fetches. pmcd serves every client from one thread, so the total levels off; "+
		"what differs between the clients is the latency they add and the CPU they spend.\n\n", dur, C.BENCH_LAT_KEEP)
	md.WriteString("| clients | perfwire fetches/s | perfwire p99 | perfwire CPU per fetch | libpcp fetches/s | libpcp p99 | libpcp CPU per fetch | throughput ratio |\n|---|---|---|---|---|---|---|---|\n")
	for _, n := range counts {
		cpu0 := cpuTime()
		pw := goClients(ids, n, dur)
		pwCPU := cpuTime() - cpu0
		cpu0 = cpuTime()
		lp := cClients(cids, n, dur)
		lpCPU := cpuTime() - cpu0
		rate := func(r clientRun) float64 { return float64(r.fetches) / r.secs }
		perFetch := func(cpu time.Duration, r clientRun) time.Duration { return cpu / time.Duration(max(r.fetches, 1)) }
		// A side that fails is a result of the curve (a peer that cannot
		// serve that many clients), not a failure of the harness.
		side := func(r clientRun, cpu time.Duration) string {
			if r.err != "" {
				return "fails: " + r.err + " | | "
			}
			return fmt.Sprintf("%.0f | %s | %s", rate(r), r.p99.Round(time.Microsecond), perFetch(cpu, r).Round(100*time.Nanosecond))
		}
		ratio := "n/a"
		if pw.err == "" && lp.err == "" {
			ratio = fmt.Sprintf("%.2fx", rate(pw)/rate(lp))
		}
		fmt.Fprintf(&md, "| %d | %s | %s | %s |\n", n, side(pw, pwCPU), side(lp, lpCPU), ratio)
		if pw.err != "" {
			f.Stats = append(f.Stats, Stat{Name: fmt.Sprintf("perfwire, %d clients", n), Err: pw.err})
		}
	}
	idle, err := idleCost(ids, idleConns)
	if err != nil {
		return fail("idle connections: " + err.Error())
	}
	fmt.Fprintf(&md, "\nCPU per fetch is the whole process's user+system time over the run divided by the fetches (pmcd's own time is not in it).\n\n"+
		"An idle pmapi connection (%d dialled, each after one fetch): %s of Go heap and stacks, %s of resident memory (goal ≤ 16 KB).\n",
		idleConns, kib(idle.heap), kib(idle.rss))
	f.Markdown = md.String()
	if len(f.Stats) > 0 {
		return f
	}
	f.Verdict = "no"
	if idle.heap <= idleGoal && idle.rss <= idleGoal {
		f.Verdict = "yes"
	}
	f.SummaryNote = fmt.Sprintf("curve over %v clients; idle connection %s heap, %s RSS", counts, kib(idle.heap), kib(idle.rss))
	return f
}

// goClients runs n pmapi clients for d.
func goClients(ids []pcp.ID, n int, d time.Duration) clientRun {
	ctx := context.Background()
	clients := make([]*pmapi.Client, n)
	for i := range clients {
		c, err := pmapi.Dial(ctx, pmcdAddr, pmapi.Options{})
		if err != nil {
			for _, c := range clients[:i] {
				c.Close()
			}
			return clientRun{err: fmt.Sprintf("dial %d of %d: %v", i+1, n, err)}
		}
		clients[i] = c
	}
	defer func() {
		for _, c := range clients {
			c.Close()
		}
	}()
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		total   int64
		lats    []time.Duration
		firstEr string
	)
	start := time.Now()
	deadline := start.Add(d)
	for _, c := range clients {
		wg.Go(func() {
			ring := make([]time.Duration, 0, C.BENCH_LAT_KEEP)
			var k int64
			for time.Now().Before(deadline) {
				t0 := time.Now()
				if _, err := c.FetchBuf(ctx, ids...); err != nil {
					mu.Lock()
					if firstEr == "" {
						firstEr = err.Error()
					}
					mu.Unlock()
					return
				}
				if lat := time.Since(t0); len(ring) < cap(ring) {
					ring = append(ring, lat)
				} else {
					ring[k%int64(cap(ring))] = lat
				}
				k++
			}
			mu.Lock()
			total += k
			lats = append(lats, ring...)
			mu.Unlock()
		})
	}
	wg.Wait()
	return clientRun{fetches: total, secs: time.Since(start).Seconds(), p99: p99(lats), err: firstEr}
}

// cClients runs n libpcp threads for d.
func cClients(ids []C.uint32_t, n int, d time.Duration) clientRun {
	lat := make([]C.int64_t, n*C.BENCH_LAT_KEEP)
	start := time.Now()
	got := C.bench_clients(C.CString("127.0.0.1"), &ids[0], C.int(len(ids)), C.int(n), C.double(d.Seconds()), &lat[0])
	secs := time.Since(start).Seconds()
	if got < 0 {
		call := "pmFetch"
		if C.bench_clients_phase() == 1 {
			call = "pmNewContext"
		}
		return clientRun{err: fmt.Sprintf("libpcp %s: %s", call, pcp.Code(int32(got)).Message())}
	}
	var lats []time.Duration
	for _, ns := range lat {
		if ns > 0 {
			lats = append(lats, time.Duration(ns))
		}
	}
	return clientRun{fetches: int64(got), secs: secs, p99: p99(lats)}
}

func p99(l []time.Duration) time.Duration {
	if len(l) == 0 {
		return 0
	}
	slices.Sort(l)
	return l[len(l)*99/100]
}

type idleBytes struct{ heap, rss int64 }

// idleCost dials n connections, fetches once on each, and measures how
// much more memory the process holds with them open: Go heap and stacks
// after a collection, and resident memory.
func idleCost(ids []pcp.ID, n int) (idleBytes, error) {
	ctx := context.Background()
	measure := func() (int64, int64) {
		debug.FreeOSMemory() // a collection, and free pages back to the OS: RSS then counts what is live
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapInuse + ms.StackInuse), rss()
	}
	h0, r0 := measure()
	clients := make([]*pmapi.Client, 0, n)
	defer func() {
		for _, c := range clients {
			c.Close()
		}
	}()
	for range n {
		c, err := pmapi.Dial(ctx, pmcdAddr, pmapi.Options{})
		if err != nil {
			return idleBytes{}, err
		}
		if _, err := c.FetchBuf(ctx, ids...); err != nil {
			return idleBytes{}, err
		}
		clients = append(clients, c)
	}
	h1, r1 := measure()
	return idleBytes{heap: (h1 - h0) / int64(n), rss: (r1 - r0) / int64(n)}, nil
}

// rss is the process's resident memory from /proc/self/status, or 0.
func rss() int64 {
	n, _ := procStatus("VmRSS")
	return n
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func kib(n int64) string { return fmt.Sprintf("%.1f KB", float64(n)/1024) }
