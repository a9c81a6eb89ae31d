//go:build conformance

package parquet

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/mmv"
)

const mmvdumpPath = "/var/lib/pcp/pmdas/mmv/mmvdump"

// mmvdumpValueLine is an entry of mmvdump's values section:
// "[item/offset] name[inst or "instance"] = value".
var mmvdumpValueLine = regexp.MustCompile(`^  \[(\d+)/\d+\] (.*) = (.*)$`)

// mmvdumpValues is the values section of mmvdump's text, each entry
// without its offset: "[item] name[inst or "instance"] = value".
func mmvdumpValues(text string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "TOC[") {
			in = strings.Contains(l, "values offset")
			continue
		}
		if m := mmvdumpValueLine.FindStringSubmatch(l); in && m != nil {
			v := m[3]
			// ELAPSED: "N (value=V/extra=E)"; the row holds N.
			if i := strings.Index(v, " (value="); i > 0 {
				v = v[:i]
			}
			out = append(out, "["+m[1]+"] "+m[2]+" = "+v)
		}
	}
	return out
}

// mmvRowLine is a DuckDB row of mmv_values as mmvdumpValues gives the
// entry: integers in decimal, floats as C's %f, strings quoted.
func mmvRowLine(r map[string]any) string {
	s := "[" + str(r["item"]) + "] " + str(r["metric"])
	if r["inst"] != nil {
		s += "[" + str(r["inst"]) + ` or "` + str(r["instance"]) + `"]`
	}
	s += " = "
	switch {
	case r["value_int64"] != nil:
		s += str(r["value_int64"])
	case r["value_uint64"] != nil:
		s += str(r["value_uint64"])
	case r["value_double"] != nil:
		f, _ := strconv.ParseFloat(str(r["value_double"]), 64)
		s += strconv.FormatFloat(f, 'f', 6, 64)
	case r["value_string"] != nil:
		s += `"` + str(r["value_string"]) + `"`
	}
	return s
}

// TestConformanceDuckDBMMVEqualsMmvdump: every value of the speed and
// hornet fixtures (and a version 3 file with every type), exported to
// mmv_values and read back by DuckDB in file order, equals the entry
// PCP's mmvdump prints for it: metric, item, instance, value.
func TestConformanceDuckDBMMVEqualsMmvdump(t *testing.T) {
	files, _ := filepath.Glob("testdata/mmv/*.mmv")
	if len(files) < 11 {
		t.Fatalf("MMV files %v", files)
	}
	dir := t.TempDir()
	want := map[string][]string{}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := mmv.Parse(b, mmv.Options{SkipRefused: true})
		if err != nil {
			t.Fatal(err)
		}
		o := (&Dir{Root: dir}).Output(strings.TrimSuffix(filepath.Base(name), ".mmv"))
		if _, err := o.MMV(&f, filepath.Base(name), "h", 1_764_000_000e9); err != nil {
			t.Fatal(err)
		}
		if err := o.Commit(); err != nil {
			t.Fatal(err)
		}
		want[filepath.Base(name)] = mmvdumpValues(tool(t, mmvdumpPath, name))
	}
	// One query for every file (DuckDB starts in a new node each time).
	got := map[string][]string{}
	for _, r := range duckdb(t, "SELECT * FROM read_parquet('"+dir+"/mmv_values/**/*.parquet', file_row_number = true) ORDER BY file, file_row_number") {
		if str(r["host"]) != "h" {
			t.Errorf("%v: host %v", r["file"], r["host"])
		}
		got[str(r["file"])] = append(got[str(r["file"])], mmvRowLine(r))
	}
	for name, lines := range want {
		if len(lines) == 0 || strings.Join(got[name], "\n") != strings.Join(lines, "\n") {
			t.Errorf("%s: mmv_values\n%s\nmmvdump\n%s", name, strings.Join(got[name], "\n"), strings.Join(lines, "\n"))
		}
	}
}
