package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// archive val prints what pmval -a printed for the recorded archives:
// instantaneous and discrete values at fixed steps, strings, an instance
// domain that grows while recording (archive/testdata/README.md).
func TestArchiveValEqualsPmval(t *testing.T) {
	files, _ := filepath.Glob(archiveData + "*.pmval-*.txt")
	if len(files) < 20 {
		t.Fatalf("%d pmval oracles", len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		base, rest, _ := strings.Cut(name, ".pmval-")
		metric := rest[:strings.LastIndexByte(rest, '-')]
		interval := rest[strings.LastIndexByte(rest, '-')+1:]
		want, _ := os.ReadFile(f)
		out := runOK(t, "archive", "val", "-t", interval, archiveData+base, metric)
		// pmval names the archive as it was given: base alone.
		got := strings.Replace(out, "archive:   "+archiveData+base+"\n", "archive:   "+base+"\n", 1)
		if got != string(want) {
			t.Errorf("%s:\n%s", name, firstDiff(got, string(want)))
		}
	}
}

func TestArchiveValArgs(t *testing.T) {
	for _, args := range [][]string{
		{archiveData + "m3"}, // no metric
		{"-t", "0", archiveData + "m3", "sample.long.one"},      // interval
		{"-S", "yesterday", archiveData + "m3", "hinv.ncpu"},    // window
		{"-Z", "Mars/Olympus", archiveData + "m3", "hinv.ncpu"}, // zone
	} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"archive", "val"}, args...), &out, &errb); code != 2 {
			t.Errorf("val %q: exit %d, want 2: %s", args, code, errb.String())
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"archive", "val", archiveData + "m3", "no.such.metric"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "no.such.metric") {
		t.Errorf("unknown metric: exit %d, %q", code, errb.String())
	}
}

// archive val --json prints a JSON line per sample pmval printed, with
// the same values: none where pmval said "No values available", else
// the number pmval printed to its 4 significant digits.
func TestArchiveValJSON(t *testing.T) {
	const oracle = archiveData + "m2.pmval-sample.double.million-0.05.txt"
	want := readTestFile(t, oracle)
	var samples []string // pmval's value column, one per sample
	for line := range strings.Lines(string(want)) {
		if len(line) > 12 && line[2] == ':' && line[5] == ':' {
			samples = append(samples, strings.TrimSpace(line[12:]))
		}
	}
	out := runOK(t, "archive", "val", "--json", "-t", "0.05", archiveData+"m2", "sample.double.million")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(samples) || len(samples) < 20 {
		t.Fatalf("%d JSON lines, pmval printed %d samples", len(lines), len(samples))
	}
	for i, line := range lines {
		var s struct {
			Timestamp, Metric string
			Values            []struct{ Value float64 }
		}
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("line %d: %v: %s", i, err, line)
		}
		if s.Metric != "sample.double.million" || !strings.HasSuffix(s.Timestamp, "Z") {
			t.Errorf("line %d: %s", i, line)
		}
		switch {
		case samples[i] == "No values available":
			if len(s.Values) != 0 {
				t.Errorf("sample %d: %s, pmval had no values", i, line)
			}
		case len(s.Values) != 1 || strconv.FormatFloat(s.Values[0].Value, 'E', 3, 64) != samples[i]:
			t.Errorf("sample %d: %s, pmval printed %s", i, line, samples[i])
		}
	}
}
