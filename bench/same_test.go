package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// tiny runs each side once for a moment: enough to compare checksums.
var tiny = Config{Rounds: 1, Target: time.Millisecond}

// checkFigure fails unless every side ran and all sides that do the same
// work read the same values (the checksums computed on both sides of
// each comparison, e.g. libpcp's pmExtractValue results against
// perfwire's).
func checkFigure(t *testing.T, f Figure) {
	t.Helper()
	if len(f.Stats) == 0 {
		t.Fatalf("%s: no sides ran: %v", f.ID, f.Notes)
	}
	for _, st := range f.Stats {
		if st.Err != "" || len(st.NsPerOp) == 0 {
			t.Errorf("%s / %s: did not run: %s", f.ID, st.Name, st.Err)
		}
		if !st.NoSum && st.Sum == 0 {
			t.Errorf("%s / %s: read nothing (checksum 0)", f.ID, st.Name)
		}
	}
	for _, n := range f.Notes {
		if strings.HasPrefix(n, "checksum differs") {
			t.Errorf("%s: %s", f.ID, n)
		}
	}
}

// TestSameWork: perfwire and libpcp (or the naive baseline) read the same
// values from the same inputs in every in-process comparison.
func TestSameWork(t *testing.T) {
	for _, fig := range []func(Config) Figure{figResult, figResultHighRes, figEvents, figEvents100, figLabelParse, figLabelMerge, figKPI, figMemcpy} {
		f := fig(tiny)
		t.Run(f.ID, func(t *testing.T) { checkFigure(t, f) })
	}
}

// TestMain lets the test binary serve as the fetch-client figure's fake
// pmcd, which startFakePmcd runs as os.Executable() -fakepmcd FILE.
func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == "-fakepmcd" {
		if err := runFakePmcd(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, "fake pmcd:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestFetchClientSameWork: against the fake pmcd, pmapi (both I/O modes,
// TCP and the unix socket) and libpcp read the same value counts from
// pmcd's recorded reply.
func TestFetchClientSameWork(t *testing.T) {
	f := figFetchClient(tiny)
	if f.cleanup != nil {
		defer f.cleanup()
	}
	checkFigure(t, f)
}
