//go:build conformance

package main

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// perfwire pm val prints what pmval prints, line for line but for the
// host line (pmval names the host as pmcd reports it; both do, but the
// oracle is run with -h 127.0.0.1 and may resolve differently).
func TestConformancePmVal(t *testing.T) {
	cases := []struct {
		args []string
		// steady: the values do not change between the two runs, so every
		// line must be equal; otherwise only the header and the shape of
		// each line are compared.
		steady bool
	}{
		{[]string{"-s", "2", "-t", "0.2", "sample.long.ten"}, true},
		{[]string{"-s", "2", "-t", "0.2", "sample.float.ten"}, true},
		{[]string{"-s", "1", "sample.double.million"}, true},
		{[]string{"-s", "1", "sample.float.one"}, true},
		{[]string{"-s", "1", "sample.double.hundred"}, true},
		{[]string{"-s", "1", "sample.double.bin"}, true},
		{[]string{"-s", "1", "sample.ulong.count.base"}, true},
		{[]string{"-s", "2", "-t", "0.2", "sample.ulonglong.million"}, true},
		{[]string{"-s", "2", "-t", "0.2", "sample.string.hullo"}, true},
		{[]string{"-s", "2", "-t", "0.2", "sample.aggregate.hullo"}, true},
		{[]string{"-s", "2", "-t", "0.2", "sample.longlong.bin_ctr"}, true},          // counter: rates of a steady counter
		{[]string{"-s", "2", "-t", "0.2", "-f", "3", "sample.double.bin_ctr"}, true}, // fixed format, no label shift
		{[]string{"-s", "2", "-t", "0.2", "-i", "bin-100,bin-200", "sample.bin"}, true},
		{[]string{"-s", "1", `sample.bin[bin-100,"bin-300"]`}, true},
		{[]string{"-s", "2", "-t", "0.2", "-w", "6", "sample.bin"}, true}, // names wider than the columns
		{[]string{"-s", "1", "sample.bogus_bin"}, true},                   // values of unknown instances
		{[]string{"-t", "0.4", "-T", "1", "sample.long.ten"}, true},       // -T sets the sample count
		{[]string{"-s", "2", "-t", "0.2", "-r", "sample.kbyte_ctr"}, false},
		{[]string{"-s", "2", "-t", "0.3", "sample.dupnames.two.seconds"}, false}, // time counter: utilization
		{[]string{"-s", "2", "-t", "0.3", "sample.colour"}, false},
	}
	for _, c := range cases {
		name := strings.Join(c.args, " ")
		want, err := exec.Command("pmval", append([]string{"-h", "127.0.0.1"}, c.args...)...).Output()
		if err != nil {
			t.Fatalf("pmval %s: %v", name, err)
		}
		got, code := runCLI(t, append([]string{"pm", "val"}, c.args...)...)
		if code != 0 {
			t.Fatalf("pm val %s: exit %d: %s", name, code, got)
		}
		g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		if len(g) != len(w) {
			t.Errorf("pm val %s: %d lines, pmval %d:\n%s\npmval:\n%s", name, len(g), len(w), got, want)
			continue
		}
		header := true
		for i := range g {
			if strings.HasPrefix(w[i], "host:") {
				continue
			}
			if strings.HasPrefix(w[i], "interval:") || strings.HasPrefix(w[i], "samples:") && !strings.Contains(string(want), "interval:") {
				if g[i] != w[i] {
					t.Errorf("pm val %s: line %d %q, pmval %q", name, i, g[i], w[i])
				}
				header = false
				continue
			}
			if c.steady || header {
				if g[i] != w[i] {
					t.Errorf("pm val %s: line %d\n%q\npmval:\n%q", name, i, g[i], w[i])
				}
				continue
			}
			// Changing values: the same columns, each a number where
			// pmval's is.
			gf, wf := strings.Fields(g[i]), strings.Fields(w[i])
			if len(g[i]) != len(w[i]) || len(gf) != len(wf) {
				t.Errorf("pm val %s: line %d shape\n%q\npmval:\n%q", name, i, g[i], w[i])
				continue
			}
			for j := range wf {
				_, errW := strconv.ParseFloat(wf[j], 64)
				_, errG := strconv.ParseFloat(gf[j], 64)
				if (errW == nil) != (errG == nil) {
					t.Errorf("pm val %s: line %d field %d: %q, pmval %q", name, i, j, gf[j], wf[j])
				}
			}
		}
	}
}

// Usage errors exit 2 and pmval's checks on its arguments hold.
func TestConformancePmValErrors(t *testing.T) {
	for _, args := range [][]string{
		{"pm", "val"},
		{"pm", "val", "-t", "0", "sample.long.ten"},
		{"pm", "val", "-f", "20", "sample.long.ten"},
		{"pm", "val", "sample.bin[bin-100"},
	} {
		if out, code := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2: %s", args, code, out)
		}
	}
	if out, code := runCLI(t, "pm", "val", "-s", "1", "-i", "bin-100", "sample.long.ten"); code != 1 || !strings.Contains(out, "singular metrics do not have instances") {
		t.Errorf("instances of a singular metric: exit %d: %s", code, out)
	}
	if out, code := runCLI(t, "pm", "val", "-s", "1", "-i", "no-such-bin", "sample.bin"); code != 1 || !strings.Contains(out, "instance no-such-bin not available") {
		t.Errorf("unknown instance: exit %d: %s", code, out)
	}
}
