//go:build conformance

package main

import "testing"

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
