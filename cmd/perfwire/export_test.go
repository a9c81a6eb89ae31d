package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// partFiles lists the Parquet files below dir, relative to it.
func partFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return err
	})
	slices.Sort(out)
	return out
}

// copyArchive copies testdata archive base into dir, cutting volume cut
// (if not "") to half its size.
func copyArchive(t *testing.T, dir, base, cut string) string {
	t.Helper()
	for _, suf := range []string{"meta", "index", "0", "1", "2"} {
		b, err := os.ReadFile(archiveData + base + "." + suf)
		if err != nil {
			t.Fatal(err)
		}
		if suf == cut {
			b = b[:len(b)/2]
		}
		if err := os.WriteFile(filepath.Join(dir, base+"."+suf), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, base)
}

// TestExportBatchWithDamage: of a batch of inputs read in parallel, the
// sound ones are exported whole, the damaged archive up to its damage;
// stderr names it with the offset, the exit status is 1, and the summary
// counts what was written. Exporting again replaces the same files.
func TestExportBatchWithDamage(t *testing.T) {
	src := t.TempDir()
	good := copyArchive(t, src, "m2", "")
	bad := copyArchive(t, t.TempDir(), "m3", "1")
	out := t.TempDir()
	args := []string{"export", "-o", out, good + ".meta", bad, kpiTestdata + "kpi-odd.dlt"}
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr.String())
	}
	if !regexp.MustCompile(`m3: .*m3\.1.*offset \d+|m3: .*m3\.1.*at \d+|m3\.1.*\d+`).MatchString(stderr.String()) ||
		strings.Contains(stderr.String(), "m2") || strings.Contains(stderr.String(), "kpi-odd") {
		t.Errorf("stderr does not name only the damaged archive with its offset:\n%s", stderr.String())
	}
	files := partFiles(t, out)
	for _, want := range []string{
		"pcp_values/host=vm/date=2026-11-25/part-" + partID(good+".meta") + ".parquet",
		"pcp_values/host=vm/date=2026-11-25/part-" + partID(bad) + ".parquet",
		"dlt_messages/host=ECU1/date=2026-11-22/part-" + partID(kpiTestdata+"kpi-odd.dlt") + ".parquet",
	} {
		if !slices.Contains(files, filepath.FromSlash(want)) {
			t.Errorf("no %s in %v", want, files)
		}
	}
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), ".") {
			t.Errorf("temporary file left: %s", f)
		}
	}
	if !regexp.MustCompile(`^exported 2 of 3 inputs whole: \d+ files, \d+ rows`).MatchString(stdout.String()) {
		t.Errorf("summary %q", stdout.String())
	}
	first := stdout.String()

	// Again: the same files, replaced, no new ones.
	stdout.Reset()
	stderr.Reset()
	if code := run(args, &stdout, &stderr); code != 1 {
		t.Fatalf("second run: exit %d", code)
	}
	if again := partFiles(t, out); !slices.Equal(again, files) {
		t.Errorf("second run's files %v, first %v", again, files)
	}
	rows := regexp.MustCompile(`\d+ files, \d+ rows`)
	if rows.FindString(stdout.String()) != rows.FindString(first) {
		t.Errorf("second run %q, first %q", stdout.String(), first)
	}
}

// TestExportUsage: missing output or inputs, unknown tables and
// partition keys are usage errors.
func TestExportUsage(t *testing.T) {
	for _, args := range [][]string{
		{"export", archiveData + "m3"},
		{"export", "-o", t.TempDir()},
		{"export", "--table", "nope", "-o", t.TempDir(), archiveData + "m3"},
		{"export", "--partition", "ecu", "-o", t.TempDir(), archiveData + "m3"},
		{"export", "--format", "csv", "-o", t.TempDir(), archiveData + "m3"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
