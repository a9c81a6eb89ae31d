package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"
)

// The page names metrics at commas and spaces as well as in repeated
// metric= parameters, and gives the interval as a duration or seconds.
func TestServePMCDQuery(t *testing.T) {
	if got := liveNames([]string{"sample.load,sample.colour", "kernel.all.load  sample.seconds", ""}); !slices.Equal(got,
		[]string{"sample.load", "sample.colour", "kernel.all.load", "sample.seconds"}) {
		t.Errorf("liveNames: %q", got)
	}
	for _, c := range []struct {
		in   string
		want time.Duration
		err  string
	}{
		{"", 2 * time.Second, ""},
		{"500ms", 500 * time.Millisecond, ""},
		{"0.25", 250 * time.Millisecond, ""},
		{"1h", time.Hour, ""},
		{"99ms", 0, "interval 99ms: want 100ms to 1h0m0s"},
		{"2h", 0, "interval 2h0m0s: want 100ms to 1h0m0s"},
		{"soon", 0, `interval "soon": want a duration`},
	} {
		got, err := liveEvery(c.in, 2*time.Second)
		if got != c.want || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("liveEvery(%q) = %v, %v; want %v, %q", c.in, got, err, c.want, c.err)
		}
	}
	if pmcdAddr("127.0.0.1") != "127.0.0.1:44321" || pmcdAddr("pcp.example:4000") != "pcp.example:4000" || pmcdAddr("::1") != "[::1]:44321" {
		t.Error(pmcdAddr("127.0.0.1"), pmcdAddr("pcp.example:4000"), pmcdAddr("::1"))
	}
}

// serve takes metric names only for --pmcd, and an interval in range.
func TestServeArgs(t *testing.T) {
	for _, args := range [][]string{{"--dir", t.TempDir(), "sample.load"}, {"--pmcd", "127.0.0.1", "--interval", "10ms"}} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"serve"}, args...), &out, &errb); code != 2 || !strings.Contains(errb.String(), "usage: perfwire serve") {
			t.Errorf("serve %q: exit %d, %q; want 2 and the usage", args, code, errb.String())
		}
	}
}
