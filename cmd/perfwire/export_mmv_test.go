package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/perfwire/perfwire/export/parquet"
)

const mmvExportTestdata = "../../export/parquet/testdata/mmv/"

// TestExportMMV: perfwire export recognises MMV files among its inputs
// and writes their values to mmv_values, partitioned by --host and the
// UTC day of the file's modification time, one row per entry that PCP's
// mmvdump printed for the file (stored dumps), in its order.
func TestExportMMV(t *testing.T) {
	src := t.TempDir()
	mtime := time.Date(2026, 11, 24, 23, 59, 59, 0, time.UTC)
	for _, name := range []string{"test2.mmv", "sample3.mmv"} {
		b := readTestFile(t, mmvExportTestdata+name)
		p := filepath.Join(src, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"export", "--host", "h", "-o", out, filepath.Join(src, "test2.mmv"), filepath.Join(src, "sample3.mmv")}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	entry := regexp.MustCompile(`(?m)^  \[\d+/\d+\] ([^\[ ]+)(\[.*\])? = `)
	for _, name := range []string{"test2.mmv", "sample3.mmv"} {
		dump := readTestFile(t, mmvExportTestdata+strings.TrimSuffix(name, ".mmv")+".mmvdump.txt")
		// The values section: from its TOC line to the blank line after it.
		i := bytes.Index(dump, []byte("values offset"))
		if i < 0 {
			t.Fatalf("%s: no values section in the dump", name)
		}
		values := string(dump[i:])
		values, _, _ = strings.Cut(values, "\n\n")
		var want []string
		for _, m := range entry.FindAllStringSubmatch(values, -1) {
			want = append(want, m[1])
		}
		rows := readParquet[parquet.MMVValue](t, filepath.Join(out, "mmv_values", "host=h", "date=2026-11-24",
			"part-"+partID(filepath.Join(src, name))+".parquet"))
		var got []string
		for _, r := range rows {
			got = append(got, r.Metric)
			if r.File != name || r.Host != "h" || r.Timestamp != mtime.UnixNano() {
				t.Errorf("%s: row %+v", name, r)
			}
		}
		if len(want) == 0 || strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: metrics %v, mmvdump's values %v", name, got, want)
		}
	}
}
