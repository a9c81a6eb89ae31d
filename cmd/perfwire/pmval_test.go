package main

import (
	"slices"
	"testing"
	"time"
)

// Metric specs as pmParseMetricSpec(3) documents them for a live host.
func TestParseMetricSpec(t *testing.T) {
	for _, c := range []struct {
		in    string
		name  string
		insts []string
		bad   bool
	}{
		{in: "sample.long.ten", name: "sample.long.ten"},
		{in: "sample.bin[bin-100,bin-200]", name: "sample.bin", insts: []string{"bin-100", "bin-200"}},
		{in: `sample.bin["bin-100",bin-300]`, name: "sample.bin", insts: []string{"bin-100", "bin-300"}},
		{in: `disk.dev.read["sda, the first"]`, name: "disk.dev.read", insts: []string{"sda, the first"}},
		{in: "sample.bin[bin-100", bad: true},
		{in: "sample.bin[]", bad: true},
		{in: `sample.bin["bin-100]`, bad: true},
		{in: "", bad: true},
	} {
		name, insts, err := parseMetricSpec(c.in)
		if (err != nil) != c.bad || name != c.name || !slices.Equal(insts, c.insts) {
			t.Errorf("parseMetricSpec(%q) = %q %q %v", c.in, name, insts, err)
		}
	}
}

// pmval -i takes names separated by commas or white space, quoted with
// either quote.
func TestSplitInstances(t *testing.T) {
	got := splitInstances(`bin-100, bin-200 'a b' "c,d",,e`)
	want := []string{"bin-100", "bin-200", "a b", "c,d", "e"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Intervals as pmParseInterval(3) reads them, and Go durations.
func TestParseInterval(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"2": 2 * time.Second, "0.5": 500 * time.Millisecond, "500msec": 500 * time.Millisecond,
		"2 sec": 2 * time.Second, "1min": time.Minute, "1.5hour": 90 * time.Minute,
		"250ms": 250 * time.Millisecond, "1m30s": 90 * time.Second,
	} {
		if got, err := parseInterval(in); err != nil || got != want {
			t.Errorf("parseInterval(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "fast", "1 fortnight"} {
		if _, err := parseInterval(in); err == nil {
			t.Errorf("parseInterval(%q) accepted", in)
		}
	}
}
