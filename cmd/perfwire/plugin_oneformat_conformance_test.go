//go:build conformance

package main

import "testing"

// TestConformanceThroughOneFormatPlugins runs the oracle tests of dlt
// (dlt-convert -a) and of mmv directories (the real pmdammv on PCP QA's
// badmmv files) with their decode inside the dlt and mmv modules.
func TestConformanceThroughOneFormatPlugins(t *testing.T) {
	throughModule(t, "dlt", map[string]func(*testing.T){"DLT": TestConformanceDLT})
	throughModule(t, "mmv", map[string]func(*testing.T){"BadMMVLikePmdammv": TestConformanceBadMMVLikePmdammv})
}
