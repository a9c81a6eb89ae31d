package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

const sampleDir = "../../ltt/testdata/smp_example"

func TestLTTSummary(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"ltt", sampleDir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var sum struct {
		Facilities []struct{ Checksum string }
		Tracefiles []struct {
			Name           string
			Blocks, Events int
			Versions       []string
			FirstTime      *int64 `json:"first_time"`
			LastTime       *int64 `json:"last_time"`
			Wraps          uint64
			Counts         map[string]int
		}
	}
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil {
		t.Fatal(err)
	}
	if len(sum.Facilities) != 1 || sum.Facilities[0].Checksum != "0x06588858" {
		t.Errorf("facilities %+v", sum.Facilities)
	}
	// docs/ltt.md §14: events per CPU and a few per-type counts.
	want := map[string]struct {
		events, softIRQ, fs int
	}{"cpu/0": {85917, 40021, 2183}, "cpu/1": {87240, 40009, 3425}}
	seen := 0
	for _, f := range sum.Tracefiles {
		w, ok := want[f.Name]
		if !ok {
			if f.Events != 0 {
				t.Errorf("%s: %d events in a control file", f.Name, f.Events)
			}
			continue
		}
		seen++
		if f.Events != w.events || f.Counts["core.soft_irq"] != w.softIRQ || f.Counts["core.file_system"] != w.fs ||
			f.Blocks != 1 || f.Wraps != 1 || len(f.Versions) != 1 || f.Versions[0] != "v1" {
			t.Errorf("%s: %+v", f.Name, f)
		}
		// about 20 s between the block records, in ns
		if f.FirstTime == nil || f.LastTime == nil || *f.LastTime-*f.FirstTime < 19e9 || *f.LastTime-*f.FirstTime > 21e9 {
			t.Errorf("%s: times %v %v", f.Name, f.FirstTime, f.LastTime)
		}
	}
	if seen != 2 {
		t.Errorf("%d cpu tracefiles", seen)
	}
}

func TestLTTEvents(t *testing.T) {
	out := runOK(t, "ltt", "--events", "-n", "45", sampleDir)
	sc := bufio.NewScanner(strings.NewReader(out))
	var last map[string]any
	n := 0
	for sc.Scan() {
		n++
		last = nil
		if err := json.Unmarshal(sc.Bytes(), &last); err != nil {
			t.Fatal(err)
		}
	}
	if n != 45 {
		t.Fatalf("%d lines", n)
	}
	// Event 44 of cpu/0 (docs/ltt.md §14): file_system at 503, open of c.proc.
	f := last["fields"].(map[string]any)
	if last["offset"].(float64) != 503 || f["file_name"] != "c.proc" || f["event_data2"].(float64) != 6 {
		t.Errorf("event #44: %v", last)
	}
}

func TestLTTMerged(t *testing.T) {
	out := runOK(t, "ltt", "--events", "--merged", "-n", "2000", sampleDir)
	sc := bufio.NewScanner(strings.NewReader(out))
	prev, n, cpus := 0.0, 0, map[any]int{}
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		if tm := ev["time"].(float64); tm < prev {
			t.Fatalf("line %d: time goes back", n)
		} else {
			prev = tm
		}
		cpus[ev["file"]]++
		n++
	}
	if n != 2000 || cpus["cpu/0"] == 0 || cpus["cpu/1"] == 0 {
		t.Errorf("%d lines from %v", n, cpus)
	}
}

func TestLTTErrors(t *testing.T) {
	for _, args := range [][]string{{"ltt"}, {"ltt", "--version", "v3", sampleDir}, {"ltt", "a", "b"}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 2 {
			t.Errorf("%q: exit %d", args, code)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"ltt", "--version", "v2", sampleDir}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "offset 999996") {
		t.Errorf("v2 on the v1 sample: exit %d, %s", code, errb.String())
	}
}
