package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/perfwire/perfwire/pmapi"
)

// soakFetches is the length of the soak in full mode.
const soakFetches = 100_000

// Goals of the soak: memory flat over the run, measured after a GC.
const (
	soakHeapGoal = 256 << 10 // live heap growth, bytes
	soakRSSGoal  = 2 << 20   // resident set growth, bytes
)

// rssBytes returns the process's resident set (VmRSS), or 0.
func rssBytes() uint64 {
	n, _ := procStatus("VmRSS")
	return uint64(n)
}

// soakRun is one client's soak: memory after warm-up and at the end.
type soakRun struct {
	name                     string
	n                        int
	elapsed                  time.Duration
	rss0, rss1, heap0, heap1 uint64
	goroutines0, goroutines1 int
	sets                     int
}

func soakOne(name string, o pmapi.Options, own bool, names []string, n int) (soakRun, error) {
	ctx := context.Background()
	c, err := pmapi.Dial(ctx, pmcdAddr, o)
	if err != nil {
		return soakRun{}, err
	}
	defer c.Close()
	ids, err := c.LookupName(ctx, names...)
	if err != nil {
		return soakRun{}, err
	}
	fetch := func() (int, error) {
		if own {
			r, err := c.Fetch(ctx, ids...)
			return r.NumPMID, err
		}
		r, err := c.FetchBuf(ctx, ids...)
		return r.NumPMID, err
	}
	for range 1000 { // warm-up: buffers reach their size
		if _, err := fetch(); err != nil {
			return soakRun{}, err
		}
	}
	s := soakRun{name: name, n: n}
	var ms runtime.MemStats
	debug.FreeOSMemory() // a GC that also returns free pages: RSS is then what is live
	runtime.ReadMemStats(&ms)
	s.heap0, s.rss0, s.goroutines0 = ms.HeapAlloc, rssBytes(), runtime.NumGoroutine()
	start := time.Now()
	for i := range n {
		k, err := fetch()
		if err != nil {
			return s, fmt.Errorf("fetch %d: %w", i, err)
		}
		s.sets += k
	}
	s.elapsed = time.Since(start)
	debug.FreeOSMemory()
	runtime.ReadMemStats(&ms)
	s.heap1, s.rss1, s.goroutines1 = ms.HeapAlloc, rssBytes(), runtime.NumGoroutine()
	return s, nil
}

// figSoak fetches the 50-metric list soakFetches times over one
// connection per client kind and checks that memory stays flat: the
// live heap and the resident set after a GC, before and after the run.
func figSoak(cfg Config) Figure {
	f := Figure{
		ID:    "soak",
		Title: fmt.Sprintf("%d fetches of the 50 metrics (testdata/fetch-metrics.txt) from pmcd on %s per client", soakFetches, pmcdAddr),
		Unit:  "run of fetches over one connection",
		Goal:  fmt.Sprintf("memory flat: live heap +%d KiB at most, resident set +%d MiB at most, no goroutine left", soakHeapGoal>>10, soakRSSGoal>>20),
	}
	n := soakFetches
	if cfg.Rounds <= 3 { // quick mode and tests: check that it runs
		n = 2000
	}
	names, err := readNames("testdata/fetch-metrics.txt")
	if err != nil {
		f.Notes = append(f.Notes, err.Error())
		f.Verdict = "no"
		return f
	}
	var md strings.Builder
	md.WriteString("Command: `cd bench && go run . -only soak` (pmcd must run: `bash scripts/pcp-up.sh`). " +
		"Memory is read after a GC that returns free pages to the OS (debug.FreeOSMemory), once 1,000 warm-up fetches have sized the buffers, and again after the run.\n\n")
	md.WriteString("| client | fetches | time | fetches/s | live heap before → after | resident set before → after | goroutines | flat |\n|---|---|---|---|---|---|---|---|\n")
	met := true
	var summary []string
	for _, side := range []struct {
		name string
		o    pmapi.Options
		own  bool
	}{
		{"Fetch (the caller's copy), default I/O", pmapi.Options{}, true},
		{"FetchBuf (a view), Options.BlockingIO", pmapi.Options{BlockingIO: true}, false},
	} {
		s, err := soakOne(side.name, side.o, side.own, names, n)
		if err != nil {
			fmt.Fprintf(&md, "| %s | error: %v | | | | | | no |\n", side.name, err)
			met = false
			continue
		}
		flat := s.heap1 <= s.heap0+soakHeapGoal && s.rss1 <= s.rss0+soakRSSGoal && s.goroutines1 <= s.goroutines0 &&
			s.sets == n*len(names)
		met = met && flat
		fmt.Fprintf(&md, "| %s | %d | %.2f s | %.0f | %d → %d KiB | %.1f → %.1f MiB | %d → %d | %s |\n", side.name, s.n,
			s.elapsed.Seconds(), float64(s.n)/s.elapsed.Seconds(), s.heap0>>10, s.heap1>>10,
			float64(s.rss0)/(1<<20), float64(s.rss1)/(1<<20), s.goroutines0, s.goroutines1, map[bool]string{true: "yes", false: "**no**"}[flat])
		summary = append(summary, fmt.Sprintf("heap %+d KiB, RSS %+.1f MiB", (int64(s.heap1)-int64(s.heap0))>>10, (float64(s.rss1)-float64(s.rss0))/(1<<20)))
	}
	f.Markdown = md.String()
	f.Verdict = map[bool]string{true: "yes", false: "no"}[met]
	f.SummaryNote = strings.Join(summary, "; ")
	return f
}
