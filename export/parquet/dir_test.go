package parquet

import (
	"path/filepath"
	"slices"
	"testing"
)

// writeInstances writes one pcp_instances row per day of days, in that
// order, through the partition router, and commits.
func writeInstances(t *testing.T, root string, days ...int64) {
	t.Helper()
	o := (&Dir{Root: root, Options: Options{Partition: []string{"date"}}}).Output("t")
	p := newParts(o, TablePCPInstances, (*PCPInstance).estimate)
	for i, d := range days {
		r, err := p.next("h", d*nsPerDay+1)
		if err != nil {
			t.Fatal(err)
		}
		*r = PCPInstance{Host: "h", Timestamp: d*nsPerDay + 1, Inst: int32(i)}
		if err := p.done(r); err != nil {
			t.Fatal(err)
		}
	}
	if got := p.rows(); got != int64(len(days)) {
		t.Errorf("rows() %d, want %d", got, len(days))
	}
	if err := o.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestLateRowStartsAnotherFile: a day's file is finished once a later
// day's row comes; a row for it after that goes to part-ID-1.parquet, and
// an export that has no late row removes that file again.
func TestLateRowStartsAnotherFile(t *testing.T) {
	root := t.TempDir()
	writeInstances(t, root, 0, 0, 1, 0, 2)
	files := partFiles(t, root)
	want := []string{
		"pcp_instances/date=1970-01-01/part-t-1.parquet",
		"pcp_instances/date=1970-01-01/part-t.parquet",
		"pcp_instances/date=1970-01-02/part-t.parquet",
		"pcp_instances/date=1970-01-03/part-t.parquet",
	}
	if !slices.Equal(files, want) {
		t.Fatalf("files %v, want %v", files, want)
	}
	var insts []int32
	for _, r := range readTable[PCPInstance](t, root, TablePCPInstances) {
		insts = append(insts, r.Inst)
	}
	slices.Sort(insts)
	if !slices.Equal(insts, []int32{0, 1, 2, 3, 4}) {
		t.Errorf("rows %v, want each once", insts)
	}

	writeInstances(t, root, 0, 1)
	want = []string{
		"pcp_instances/date=1970-01-01/part-t.parquet",
		"pcp_instances/date=1970-01-02/part-t.parquet",
		"pcp_instances/date=1970-01-03/part-t.parquet", // a partition not written again is left
	}
	if files := partFiles(t, root); !slices.Equal(files, want) {
		t.Errorf("after a re-export: files %v, want %v", files, want)
	}
}

// partFiles lists the files below root, relative to it, with slashes.
func partFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	all, err := filepath.Glob(filepath.Join(root, "*", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range all {
		rel, _ := filepath.Rel(root, f)
		out = append(out, filepath.ToSlash(rel))
	}
	slices.Sort(out)
	return out
}
