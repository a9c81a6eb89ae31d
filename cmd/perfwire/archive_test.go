package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The archives in archive/testdata were recorded by the real pmlogger;
// pmdumplog's output for them is the oracle (see its README).
const archiveData = "../../archive/testdata/"

func TestArchiveEqualsPmdumplog(t *testing.T) {
	for _, base := range []string{"m2", "m3"} {
		for _, flag := range []string{"a", "e", "h"} {
			want := readTestFile(t, archiveData+base+".pmdumplog-"+flag+".txt")
			if got := runOK(t, "archive", "-"+flag, archiveData+base); got != string(want) {
				t.Errorf("archive -%s %s differs from pmdumplog:\n%s", flag, base, firstDiff(got, string(want)))
			}
		}
	}
}

// Any file of an archive names it, as pmdumplog accepts.
func TestArchiveNamedByAnyFile(t *testing.T) {
	var want bytes.Buffer
	run([]string{"archive", "-l", archiveData + "m3"}, &want, &bytes.Buffer{})
	for _, name := range []string{"m3.meta", "m3.index", "m3.0", "m3.2"} {
		var out, errb bytes.Buffer
		if code := run([]string{"archive", "-l", archiveData + name}, &out, &errb); code != 0 || out.String() != want.String() {
			t.Errorf("archive -l %s: exit %d, %q, stderr %q", name, code, out.String(), errb.String())
		}
	}
}

// --json has one line per record of pmdumplog's, and the values of each
// in the same order, equal to what pmdumplog prints.
func TestArchiveJSON(t *testing.T) {
	oracle := readTestFile(t, archiveData+"m3.pmdumplog-a.txt")
	want := dumplogRecords(string(oracle))
	out := runOK(t, "archive", "--json", archiveData+"m3")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(want) || len(want) < 30 {
		t.Fatalf("%d JSON lines, pmdumplog has %d records", len(lines), len(want))
	}
	for i, line := range lines {
		var rec struct {
			Timestamp string
			Values    []struct {
				PMID     string
				Inst     int32
				Instance *string
				Value    json.RawMessage
				Hex      *string
				Records  []any
			}
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		w := want[i]
		// 2026-11-25T06:19:10.1234Z against pmdumplog's 06:19:10.123400000.
		if got := rec.Timestamp[11 : len(rec.Timestamp)-1]; strings.TrimRight(got, "0") != strings.TrimRight(w.stamp, "0") {
			t.Errorf("record %d: timestamp %s, pmdumplog %s", i, rec.Timestamp, w.stamp)
		}
		var got []dumplogValue
		for _, v := range rec.Values {
			if v.Records != nil {
				continue // event arrays: their records are checked by -a
			}
			d := dumplogValue{pmid: v.PMID, inst: "-1", value: string(v.Value)}
			if v.Hex != nil {
				d.value = "[" + *v.Hex + "]" // pmdumplog ends an aggregate with its hex
			}
			if v.Instance != nil {
				d.inst = strconv.Itoa(int(v.Inst)) + " or \"" + *v.Instance + "\""
			}
			got = append(got, d)
		}
		if len(got) != len(w.values) {
			t.Fatalf("record %d: %d values, pmdumplog %d", i, len(got), len(w.values))
		}
		for j, g := range got {
			if d := w.values[j]; g.pmid != d.pmid || g.inst != d.inst || !sameValue(g.value, d.value) {
				t.Errorf("record %d value %d: %+v, pmdumplog %+v", i, j, g, d)
			}
		}
	}
}

// sameValue compares a JSON value with pmdumplog's text of it: strings
// quoted alike, integers exactly, reals to the 8 digits pmdumplog prints
// of a float, aggregates by the hex pmdumplog ends them with.
func sameValue(js, text string) bool {
	if js == text || strings.HasPrefix(js, "[") && strings.HasSuffix(text, " "+js) {
		return true
	}
	a, err1 := strconv.ParseFloat(js, 64)
	b, err2 := strconv.ParseFloat(text, 64)
	return err1 == nil && err2 == nil && math.Abs(a-b) <= 1e-7*math.Abs(b)
}

type dumplogRecord struct {
	stamp  string
	values []dumplogValue
}

type dumplogValue struct{ pmid, inst, value string }

// dumplogRecords reads the data records of pmdumplog's output: each
// record's time and its values other than event arrays, in order.
func dumplogRecords(text string) []dumplogRecord {
	var out []dumplogRecord
	pmid := ""
	for line := range strings.Lines(text) {
		line = strings.TrimSuffix(line, "\n")
		f := strings.Fields(line)
		switch {
		case strings.HasSuffix(line, " metrics") || strings.HasSuffix(line, " metric"):
			if !strings.HasPrefix(line, " ") && len(f) == 3 {
				out = append(out, dumplogRecord{stamp: f[0]})
			}
			continue
		case len(out) == 0 || strings.Contains(line, "event record") || len(f) == 0:
			continue
		case strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, "     "):
			pmid = f[0]
		case !strings.HasPrefix(strings.TrimSpace(line), "inst ["):
			continue // an event parameter
		}
		_, rest, ok := strings.Cut(line, " value ")
		if !ok {
			continue
		}
		v := dumplogValue{pmid: pmid, inst: "-1", value: rest}
		if i := strings.Index(line, "inst ["); i >= 0 {
			v.inst = line[i+6 : strings.Index(line, "] value ")]
		}
		r := &out[len(out)-1]
		r.values = append(r.values, v)
	}
	return out
}

// firstDiff describes where two texts part, by line.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + strconv.Itoa(i+1) + ":\n  perfwire:  " + gl + "\n  pmdumplog: " + wl
		}
	}
	return ""
}

// archive record refuses bad arguments before it connects, and never
// writes over an archive.
func TestArchiveRecordArgs(t *testing.T) {
	base := t.TempDir() + "/x"
	os.WriteFile(base+".meta", []byte("keep"), 0o644)
	for _, args := range [][]string{
		{"-o", base + "y"},                   // no metric
		{"sample.long.one"},                  // no -o
		{"-o", base + "y", "-V", "4", "m"},   // version
		{"-o", base + "y", "-s", "0", "m"},   // samples
		{"-o", base, "sample.long.one"},      // exists
		{"-o", base + "y", "-t", "-1s", "m"}, // interval
		{"-o", base + "y", "--bogus", "m"},   // flag
	} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"archive", "record"}, args...), &out, &errb); code != 2 {
			t.Errorf("record %q: exit %d, want 2: %s", args, code, errb.String())
		}
	}
	if b, _ := os.ReadFile(base + ".meta"); string(b) != "keep" {
		t.Errorf("the existing archive was touched")
	}
}
