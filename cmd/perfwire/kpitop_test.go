package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// kpi top draws one frame per ACT group, as many as the capture lab's
// reader counted in the capture, each listing every process; its last
// frame holds the values of perfwire kpi's table, busiest first.
func TestKPITopFrames(t *testing.T) {
	for _, name := range []string{"kpi-odd", "excerpt-irq-strtok-race"} {
		_, groups, _ := statsTotals(t, name)
		var out bytes.Buffer
		if err := runKPI([]string{"top", kpiTestdata + name + ".dlt"}, &out); err != nil {
			t.Fatal(err)
		}
		frames := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n\n")
		if len(frames) != max(groups["ACT"], 1) {
			t.Errorf("%s: %d frames, %d ACT groups", name, len(frames), groups["ACT"])
		}

		var final, table bytes.Buffer
		if err := runKPI([]string{"top", "--final", kpiTestdata + name + ".dlt"}, &final); err != nil {
			t.Fatal(err)
		}
		if got := frames[len(frames)-1] + "\n"; got != final.String() {
			t.Errorf("%s: --final differs from the last frame", name)
		}
		if err := runKPI([]string{kpiTestdata + name + ".dlt"}, &table); err != nil {
			t.Fatal(err)
		}
		// kpi's rows, without the FLAGS column, are kpi top's rows.
		var want []string
		for _, line := range strings.Split(table.String(), "\n") {
			if len(line) < 61 || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "    PID") {
				continue
			}
			want = append(want, line[:54]+line[60:])
		}
		got := strings.Split(strings.TrimSuffix(final.String(), "\n"), "\n")[2:]
		slices.Sort(want)
		sorted := slices.Sorted(slices.Values(got))
		if !slices.Equal(sorted, want) {
			t.Errorf("%s: last frame's rows differ from perfwire kpi's:\n%s\nkpi:\n%s", name, strings.Join(sorted, "\n"), strings.Join(want, "\n"))
		}
		// Busiest first.
		prev := 1 << 30
		for _, row := range got {
			f := strings.Fields(row)
			cpu := -1
			if f[2] != "-" {
				cpu = atoi(t, f[2])
			}
			if cpu > prev {
				t.Errorf("%s: not sorted by CPU: %q after %d", name, row, prev)
			}
			prev = cpu
		}
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("not a number: %q", s)
		}
		n = n*10 + int(c-'0')
	}
	return n
}

func TestKPITopUsage(t *testing.T) {
	for _, args := range [][]string{
		{"top"},
		{"top", "--sort", "name", "x.dlt"},
		{"top", "--follow", "localhost", "x.dlt"},
		{"top", "--rows", "-1", "x.dlt"},
	} {
		var out bytes.Buffer
		if _, ok := runKPI(args, &out).(*usageError); !ok {
			t.Errorf("%v: not a usage error", args)
		}
	}
}
