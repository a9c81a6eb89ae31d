package eventrec

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/perfwire/perfwire/pcp"
)

// array100 builds a 100-record EVENT array out of the real records the
// sample PMDA sent in the recorded live runs (every parameter type, span
// flags, missed markers), repeated in order.
func array100(t testing.TB) Array {
	t.Helper()
	var recs []Record
	for _, b := range realArrays(t) {
		a, err := Parse(b, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if a.Type() == pcp.TypeEvent {
			recs = append(recs, collect(t, a)...)
		}
	}
	if len(recs) == 0 {
		t.Fatal("no real records")
	}
	b := NewBuilder(nil, pcp.TypeEvent)
	for i := range 100 {
		r := recs[i%len(recs)]
		if n, ok := r.Missed(); ok {
			b.AddMissed(r.Seconds(), r.Fraction(), n)
			continue
		}
		b.AddRecord(r.Seconds(), r.Fraction(), r.Flags())
		for p := range r.Params() {
			b.AddParam(p.ID, p.Type, p.Value)
		}
	}
	out, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	a, err := Parse(out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// walkScanner visits every parameter with the scanners.
func walkScanner(a Array) (n int) {
	s := a.Scanner()
	for s.Next() {
		ps := s.Record().ParamScanner()
		for ps.Next() {
			n += len(ps.Param().Value)
		}
	}
	return n
}

// walkIter visits every parameter with the range-over-func iterators.
func walkIter(a Array) (n int) {
	for r, err := range a.All() {
		if err != nil {
			return -1
		}
		for p := range r.Params() {
			n += len(p.Value)
		}
	}
	return n
}

func TestAllocs(t *testing.T) {
	a := array100(t)
	in := a.Bytes()
	var u Unpacker
	u.Unpack(a) // grow the reusable slices once
	for name, f := range map[string]func(){
		"Parse":       func() { _, _ = Parse(in, Options{}) },
		"walkScanner": func() { walkScanner(a) },
		"walkIter":    func() { walkIter(a) },
		"Unpack":      func() { u.Unpack(a) },
		"UnpackBytes": func() { _, _ = u.UnpackBytes(in, Options{}) },
		"Flags":       func() { var buf [64]byte; _, _ = FlagStart.AppendText(buf[:0]) },
		"ParamText": func() {
			var buf [512]byte
			for r := range a.Records() {
				for p := range r.Params() {
					_, _ = p.AppendText(buf[:0])
				}
			}
		},
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocs per run, want 0", name, n)
		}
	}
	buf := make([]byte, 0, 2*len(in))
	var b Builder
	if n := testing.AllocsPerRun(100, func() {
		b.Reset(buf[:0], pcp.TypeEvent)
		for r := range a.Records() {
			b.AddRecord(r.Seconds(), r.Fraction(), r.Flags()&^FlagMissed)
			for p := range r.Params() {
				b.AddParam(p.ID, p.Type, p.Value)
			}
		}
		_, _ = b.Finish()
	}); n != 0 {
		t.Errorf("Builder into a large enough buffer: %v allocs per run, want 0", n)
	}
}

// BenchmarkIterateParams visits every parameter of a 100-record array.
func BenchmarkIterateParams(b *testing.B) {
	a := array100(b)
	b.SetBytes(int64(len(a.Bytes())))
	b.ReportAllocs()
	for b.Loop() {
		walkScanner(a)
	}
}

// BenchmarkIterateParamsIter is the same walk through All and Params.
func BenchmarkIterateParamsIter(b *testing.B) {
	a := array100(b)
	b.SetBytes(int64(len(a.Bytes())))
	b.ReportAllocs()
	for b.Loop() {
		walkIter(a)
	}
}

// BenchmarkParse validates the 100-record array.
func BenchmarkParse(b *testing.B) {
	in := array100(b).Bytes()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(in, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnpack unpacks the 100-record array into reused results.
func BenchmarkUnpack(b *testing.B) {
	a := array100(b)
	var u Unpacker
	b.SetBytes(int64(len(a.Bytes())))
	b.ReportAllocs()
	for b.Loop() {
		u.Unpack(a)
	}
}

// BenchmarkAppendArray re-encodes the 100-record array into a reused
// buffer.
func BenchmarkAppendArray(b *testing.B) {
	a := array100(b)
	buf := make([]byte, 0, len(a.Bytes()))
	b.SetBytes(int64(len(a.Bytes())))
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = AppendArray(buf[:0], a); err != nil {
			b.Fatal(err)
		}
	}
}

// conv05Arrays returns the four tiny arrays of the conv05 capture, the
// inputs of the bench module's events figure.
func conv05Arrays(t testing.TB) [][]byte {
	t.Helper()
	names, _ := filepath.Glob("testdata/conv05.pdu0.HIGHRES_RESULT.29.0.*.bin")
	if len(names) != 4 {
		t.Fatalf("%d conv05 arrays, want 4", len(names))
	}
	var out [][]byte
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// BenchmarkUnpackSmall unpacks the four conv05 arrays (1-3 records each),
// where the fixed cost per array dominates: validated by Parse and then
// unpacked, and checked and unpacked in one pass by UnpackBytes.
func BenchmarkUnpackSmall(b *testing.B) {
	arrays := conv05Arrays(b)
	n := 0
	for _, a := range arrays {
		n += len(a)
	}
	b.Run("ParseUnpack", func(b *testing.B) {
		var u Unpacker
		b.SetBytes(int64(n))
		b.ReportAllocs()
		for b.Loop() {
			for _, in := range arrays {
				a, err := Parse(in, Options{})
				if err != nil {
					b.Fatal(err)
				}
				u.Unpack(a)
			}
		}
	})
	b.Run("UnpackBytes", func(b *testing.B) {
		var u Unpacker
		b.SetBytes(int64(n))
		b.ReportAllocs()
		for b.Loop() {
			for _, in := range arrays {
				if _, err := u.UnpackBytes(in, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkUnpackBytes validates and unpacks the 100-record array in one
// pass.
func BenchmarkUnpackBytes(b *testing.B) {
	in := array100(b).Bytes()
	var u Unpacker
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := u.UnpackBytes(in, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
