package pduwire_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/perfwire/perfwire/pduwire"
)

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sink keeps the walk's reads from being optimised away.
var sink uint64

// walkResult parses a result and reads every value; it returns the
// number of values.
func walkResult(pdu []byte) (int, error) {
	r, err := pduwire.ParseResult(pdu)
	if err != nil {
		return 0, err
	}
	n := 0
	s := r.Scan()
	for s.Next() {
		vs := s.ValueSet()
		for i := range vs.Len() {
			sink += vs.Value(i).Uint64()
			n++
		}
	}
	return n, nil
}

// TestResultViewAllocs: parsing and walking the 1,000-value RESULT (and
// its HIGHRES twin) allocates nothing.
func TestResultViewAllocs(t *testing.T) {
	for _, f := range []string{"result-1000.bin", "result-1000-highres.bin"} {
		pdu := readFile(t, "testdata/bench/"+f)
		n, err := walkResult(pdu)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if n != 1000 { // bench/README: 50 metrics, 1,000 values
			t.Fatalf("%s: %d values, want 1000", f, n)
		}
		if a := testing.AllocsPerRun(100, func() { _, _ = walkResult(pdu) }); a != 0 {
			t.Errorf("%s: %v allocs per parse+walk, want 0", f, a)
		}
		// The iterator form allocates nothing either.
		r, _ := pduwire.ParseResult(pdu)
		if a := testing.AllocsPerRun(100, func() {
			for vs := range r.ValueSets() {
				for v := range vs.Values() {
					_ = v
				}
			}
		}); a != 0 {
			t.Errorf("%s: %v allocs per iterator walk, want 0", f, a)
		}
		// Decoding into a reused ResultPDU reaches a steady state of 0.
		var d pduwire.ResultPDU
		if err := d.UnmarshalBinary(pdu); err != nil {
			t.Fatal(err)
		}
		if a := testing.AllocsPerRun(100, func() { _ = d.UnmarshalBinary(pdu) }); a != 0 {
			t.Errorf("%s: %v allocs per reused UnmarshalBinary, want 0", f, a)
		}
	}
}

func BenchmarkResultView1000(b *testing.B) {
	pdu := readFile(b, "testdata/bench/result-1000.bin")
	b.SetBytes(int64(len(pdu)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := walkResult(pdu); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHighResResultView1000(b *testing.B) {
	pdu := readFile(b, "testdata/bench/result-1000-highres.bin")
	b.SetBytes(int64(len(pdu)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := walkResult(pdu); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResultEncode1000(b *testing.B) {
	var d pduwire.ResultPDU
	if err := d.UnmarshalBinary(readFile(b, "testdata/bench/result-1000.bin")); err != nil {
		b.Fatal(err)
	}
	buf := d.Append(nil, 0)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = d.Append(buf[:0], 0)
	}
}

// captureStream concatenates every captured server stream.
func captureStream(b *testing.B) []byte {
	var all []byte
	for _, conv := range captures(b) {
		all = append(all, readFile(b, "testdata/captures/"+conv+".server.bin")...)
		all = append(all, readFile(b, "testdata/captures/"+conv+".client.bin")...)
	}
	return all
}

func BenchmarkScanner(b *testing.B) {
	all := captureStream(b)
	b.SetBytes(int64(len(all)))
	b.ReportAllocs()
	for b.Loop() {
		s := pduwire.NewScanner(all, pduwire.Options{})
		for s.Next() {
		}
		if s.Err() != nil {
			b.Fatal(s.Err())
		}
	}
}

func BenchmarkReader(b *testing.B) {
	all := captureStream(b)
	b.SetBytes(int64(len(all)))
	b.ReportAllocs()
	br := bytes.NewReader(all)
	r := pduwire.NewReader(br, pduwire.Options{})
	for b.Loop() {
		br.Reset(all)
		for r.Next() {
		}
		if r.Err() != nil {
			b.Fatal(r.Err())
		}
	}
}

func BenchmarkDecodeCaptures(b *testing.B) {
	all := captureStream(b)
	b.SetBytes(int64(len(all)))
	b.ReportAllocs()
	for b.Loop() {
		for p, err := range pduwire.All(all, pduwire.Options{}) {
			if err != nil {
				b.Fatal(err)
			}
			if _, err := pduwire.Decode(p.Bytes); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestDecodeReuseAllocs: decoding every captured PDU into a reused
// message of its type allocates nothing once the slices have grown.
func TestDecodeReuseAllocs(t *testing.T) {
	msgs := map[pduwire.Type]pduwire.Message{}
	n := 0
	for _, conv := range captures(t) {
		for _, dir := range []string{"client", "server"} {
			for _, p := range loadStream(t, conv, dir).pdus {
				m := msgs[p.Header.Type]
				if m == nil {
					m = pduwire.New(p.Header.Type)
					msgs[p.Header.Type] = m
				}
				if err := m.UnmarshalBinary(p.Bytes); err != nil {
					t.Fatal(err)
				}
				if a := testing.AllocsPerRun(5, func() { _ = m.UnmarshalBinary(p.Bytes) }); a != 0 {
					t.Errorf("%s %s %v @%d: %v allocs", conv, dir, p.Header.Type, p.Offset, a)
				}
				n++
			}
		}
	}
	t.Logf("%d PDUs of %d types", n, len(msgs))
}
