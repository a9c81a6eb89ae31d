//go:build conformance

package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// init lets the test binary serve as the figure's Go PMDA, which pmcd
// runs as os.Executable() -pmda-go (before TestMain parses test flags).
func init() {
	if len(os.Args) == 2 && os.Args[1] == "-pmda-go" {
		if err := pmdaGoChild(); err != nil {
			fmt.Fprintln(os.Stderr, "pmda-go:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// TestConformancePMDA: a private pmcd starts the C PMDA (libpcp_pmda) and
// the Go one (package pmda); pmapi fetches the same 10,000 values from
// both, and over rounds of the full figure's 300 fetches the Go PMDA's
// process allocates (almost) nothing. pmda's request path allocates
// nothing (TestServeFetchAllocs); what the runtime allocates once per P
// (its timer heap's first slot, 16 bytes) may fall inside a round, so
// the figure's own rule judges it (no more than one allocation per P,
// or under one per 100 fetches). A round in which the runtime starts an
// OS thread (a loaded host makes one likely) holds that thread's
// allocations and is not judged: four rounds leave rounds to judge, and
// a run with none judged fails.
func TestConformancePMDA(t *testing.T) {
	f := figPMDA(Config{Rounds: 4, Target: tiny.Target}, false)
	if f.cleanup != nil {
		defer f.cleanup()
	}
	checkFigure(t, f)
	same := false
	for _, n := range f.Notes {
		same = same || strings.HasPrefix(n, "Both PMDAs served the same values")
	}
	if !same {
		t.Errorf("the PMDAs' values were not compared: %q", f.Notes)
	}
	for _, m := range f.SubMiss {
		if strings.HasPrefix(m, "Allocations:") {
			t.Errorf("%s (%.3f per fetch)", m, f.Stats[0].GoAllocs)
		}
	}
}
