package main

import (
	"bytes"
	"os"
	"path/filepath"
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
		var out, errb bytes.Buffer
		if code := run([]string{"archive", "val", "-t", interval, archiveData + base, metric}, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errb.String())
		}
		// pmval names the archive as it was given: base alone.
		got := strings.Replace(out.String(), "archive:   "+archiveData+base+"\n", "archive:   "+base+"\n", 1)
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
