package archive

import "testing"

// BenchmarkScan reads every value of the v3 test archive (three volumes).
func BenchmarkScan(b *testing.B) {
	f := load(b, "m3")
	a, err := f.open(Options{})
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, v := range f.vols {
		size += int64(len(v))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	var sum uint64
	for b.Loop() {
		s := a.NewScanner()
		for s.Next() {
			vs := s.Record().Result.Scan()
			for vs.Next() {
				v := vs.ValueSet()
				for j := range v.Len() {
					sum += v.Value(j).Uint64()
				}
			}
		}
		if s.Err() != nil {
			b.Fatal(s.Err())
		}
	}
	_ = sum
}

// BenchmarkOpen reads the label and the metadata.
func BenchmarkOpen(b *testing.B) {
	f := load(b, "m3")
	b.SetBytes(int64(len(f.meta)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.open(Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
