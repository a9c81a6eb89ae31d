package parquet

import (
	"testing"
)

// BenchmarkArchiveValues exports testdata/m3's values (1,158 rows) per
// operation.
func BenchmarkArchiveValues(b *testing.B) {
	a, err := openArchiveT(b, "m3")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	d := &Dir{Root: dir, Options: Options{Tables: []string{TablePCPValues}}}
	var rows int64
	for b.Loop() {
		out := d.Output("b")
		n, err := out.Archive(a, "m3", "")
		if err != nil {
			b.Fatal(err)
		}
		if err := out.Commit(); err != nil {
			b.Fatal(err)
		}
		rows = n
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
