package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	pq "github.com/parquet-go/parquet-go"
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
		b := readTestFile(t, archiveData+base+"."+suf)
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
		{"export", "--row-group-size", "0", "-o", t.TempDir(), archiveData + "m3"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// rowGroups reads the footer of the one pcp_values file below dir: its
// row groups' row counts.
func rowGroups(t *testing.T, dir string) []int64 {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "pcp_values", "*", "*", "*.parquet"))
	if len(files) != 1 {
		t.Fatalf("pcp_values files %v, want one", files)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	pf, err := pq.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	var rows []int64
	for _, g := range pf.Metadata().RowGroups {
		rows = append(rows, g.NumRows)
	}
	return rows
}

// TestExportRowGroupSize: --row-group-size bounds the row groups of the
// files written, as their footers count them: the default keeps a small
// archive in one group, a quarter of the bound makes about four times as
// many groups, and every row is in one of them.
func TestExportRowGroupSize(t *testing.T) {
	groups := map[string][]int64{}
	for _, size := range []string{"", "8192", "32768"} {
		out := t.TempDir()
		args := []string{"export", "--table", "pcp_values", "-o", out, archiveData + "m3"}
		if size != "" {
			args = append(args[:1], append([]string{"--row-group-size", size}, args[1:]...)...)
		}
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr.String())
		}
		groups[size] = rowGroups(t, out)
	}
	sum := func(g []int64) (n int64) {
		for _, r := range g {
			n += r
		}
		return n
	}
	all, small, large := groups[""], groups["8192"], groups["32768"]
	if len(all) != 1 || sum(small) != all[0] || sum(large) != all[0] {
		t.Fatalf("row groups: default %v, 8 KiB %v, 32 KiB %v", all, small, large)
	}
	if len(large) < 4 || len(small) < 3*len(large) || len(small) > 5*len(large) {
		t.Errorf("%d row groups at 8 KiB, %d at 32 KiB: the bound is not what makes them", len(small), len(large))
	}
}
