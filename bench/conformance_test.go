//go:build conformance

package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestConformanceTools: the comparisons with dlt-convert and mmvdump run
// and count the same messages and lines as perfwire.
func TestConformanceTools(t *testing.T) {
	checkFigure(t, figDLT(tiny, true))
	checkFigure(t, figMMVRead(tiny))
}

// TestConformanceFetch: pmapi, libpcp and python3-pcp fetch the same
// number of values from the live pmcd (scripts/pcp-up.sh).
func TestConformanceFetch(t *testing.T) {
	f := figFetch(tiny)
	if f.cleanup != nil {
		defer f.cleanup()
	}
	checkFigure(t, f)
}

// TestConformanceSoak: a short soak (2,000 fetches per client) against
// the live pmcd keeps memory flat; `go run . -only soak` runs the full one.
func TestConformanceSoak(t *testing.T) {
	if f := figSoak(tiny); f.Verdict != "yes" {
		t.Fatalf("soak: %s\n%s", f.SummaryNote, f.Markdown)
	}
}

// TestConformanceArchive: the archive the figure writes passes pmlogcheck
// (which only notes the counters going back where the repeated records
// start again), and perfwire and libpcp read the same values from it
// (count and sum).
func TestConformanceArchive(t *testing.T) {
	dir := t.TempDir()
	if _, err := writeBigArchive(filepath.Join(dir, "big"), 1<<20); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pmlogcheck", filepath.Join(dir, "big")).CombinedOutput()
	if err != nil {
		t.Fatalf("pmlogcheck: %v: %s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line != "" && !strings.Contains(line, "-bit wrap") && !strings.HasPrefix(line, "\tvalue ") {
			t.Errorf("pmlogcheck: %s", line)
		}
	}
	f := figArchive(tiny, true)
	if f.cleanup != nil {
		defer f.cleanup()
	}
	checkFigure(t, f)
}
