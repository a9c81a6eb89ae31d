package main

/*
#include "bench.h"
*/
import "C"

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/perfwire/perfwire/pmapi"
)

const pmcdAddr = "127.0.0.1:44321"

func readNames(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var names []string
	for l := range strings.SplitSeq(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			names = append(names, l)
		}
	}
	return names, nil
}

// pyFetcher drives fetch.py: one request line per round.
type pyFetcher struct {
	cmd *exec.Cmd
	in  *bufio.Writer
	out *bufio.Scanner
}

func startPy() (*pyFetcher, error) {
	cmd := exec.Command("/usr/bin/python3", "fetch.py", "127.0.0.1", "testdata/fetch-metrics.txt")
	cmd.Stderr = os.Stderr
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	r, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &pyFetcher{cmd: cmd, in: bufio.NewWriter(w), out: bufio.NewScanner(r)}, nil
}

func (p *pyFetcher) run(n int) (cpu, wall time.Duration, sum uint64, err error) {
	fmt.Fprintln(p.in, n)
	if err := p.in.Flush(); err != nil {
		return 0, 0, 0, err
	}
	if !p.out.Scan() {
		return 0, 0, 0, fmt.Errorf("python3-pcp fetch loop exited: %v", p.out.Err())
	}
	var c, w int64
	if _, err := fmt.Sscan(p.out.Text(), &c, &w, &sum); err != nil {
		return 0, 0, 0, err
	}
	return time.Duration(c), time.Duration(w), sum, nil
}

func (p *pyFetcher) stop() {
	p.cmd.Process.Kill()
	p.cmd.Wait()
}

func figFetch(cfg Config) Figure {
	f := Figure{
		ID:       "fetch",
		Title:    "live fetch loop against pmcd on " + pmcdAddr + " (testdata/fetch-metrics.txt: 50 sample metrics)",
		Unit:     "fetch of the 50 metrics, every value set's count read",
		Goal:     "pmapi at least as fast as C libpcp (ratio ≥ 1), far ahead of python3-pcp",
		MinRatio: 1,
	}
	names, err := readNames("testdata/fetch-metrics.txt")
	if err != nil {
		f.Notes = append(f.Notes, err.Error())
		return f
	}
	ctx := context.Background()
	cl, err := pmapi.Dial(ctx, pmcdAddr)
	if err != nil {
		f.Stats = []Stat{{Name: "perfwire pmapi", Err: "pmcd not reachable (start it: bash scripts/pcp-up.sh): " + err.Error()}}
		return f
	}
	f.cleanup = func() { cl.Close() }
	ids, err := cl.LookupName(ctx, names...)
	if err != nil {
		f.Stats = []Stat{{Name: "perfwire pmapi", Err: err.Error()}}
		return f
	}
	if rc := C.bench_fetch_setup(C.CString("127.0.0.1"), cStrings(names), C.int(len(names))); rc < 0 {
		f.Stats = []Stat{{Name: "libpcp", Err: fmt.Sprintf("libpcp context or lookup failed: %d", rc)}}
		return f
	}
	py, err := startPy()
	if err != nil {
		f.Stats = []Stat{{Name: "python3-pcp", Err: err.Error()}}
		return f
	}
	f.cleanup = func() { cl.Close(); py.stop() }
	// Fetches are round trips: fixed counts keep rounds short.
	per := max(20, int(cfg.Target/(200*time.Microsecond)))
	f.compare(cfg, true, []Side{
		{Name: "perfwire pmapi.Client.Fetch", Fixed: per, Run: func(n int) uint64 {
			var sum uint64
			for range n {
				r, err := cl.Fetch(ctx, ids...)
				if err != nil {
					return 0
				}
				sum = 0
				s := r.Scan()
				for s.Next() {
					sum += uint64(s.ValueSet().Len())
				}
			}
			return sum
		}},
		{Name: "libpcp pmFetch + pmFreeResult (C -O2)", Peer: true, Fixed: per, Run: func(n int) uint64 {
			return uint64(C.bench_fetch(C.int(n)))
		}},
		{Name: "python3-pcp pmContext.pmFetch + pmFreeResult", Fixed: max(10, per/4), Timed: py.run},
	})
	f.Notes = append(f.Notes, "python3-pcp runs in its own process (fetch.py); it times its own loop, so interpreter start-up and name lookup are excluded, and its allocations are not counted.",
		"CPU medians are the client process's CPU per fetch (user+system, all threads; python: its thread's); the wall time is mostly pmcd, the sample PMDA and the loopback, which all three share.")
	checkSums(&f)
	return f
}
