package labels

import (
	"strings"
	"testing"
)

// mergeLevels parses the five benchmark levels (context … item).
func mergeLevels(t testing.TB) []*Set {
	var sets []*Set
	for i, l := range readLines(t, "bench/merge-5.jsonl") {
		s := new(Set)
		if err := Parse(s, []byte(l), Options{Flags: Flags(1 << i)}); err != nil {
			t.Fatal(err)
		}
		sets = append(sets, s)
	}
	return sets
}

// TestAllocs: parsing into a reused Set, decoding a wire index, lookups,
// iteration and merging allocate nothing in steady state.
func TestAllocs(t *testing.T) {
	text := []byte(strings.TrimSpace(string(readFile(t, "bench/parse-10.json"))))
	nested := []byte(`{"a":{"b":{"c":1,"d":[1, 2]}},"e":"x","f":{}}`)
	var s Set
	for _, tc := range []struct {
		name string
		fn   func()
	}{
		{"Parse", func() {
			if err := Parse(&s, text, Options{}); err != nil {
				t.Fatal(err)
			}
		}},
		{"Parse nested KeepOrder", func() {
			if err := Parse(&s, nested, Options{KeepOrder: true}); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		if n := testing.AllocsPerRun(100, tc.fn); n != 0 {
			t.Errorf("%s: %v allocs per run", tc.name, n)
		}
	}

	if err := Parse(&s, text, Options{}); err != nil {
		t.Fatal(err)
	}
	index := s.AppendIndex(nil)
	js := append([]byte(nil), s.JSON...)
	var w Set
	for _, v := range []Verify{VerifyBounds, VerifyIndex, VerifyStrict} {
		if n := testing.AllocsPerRun(100, func() {
			if err := w.DecodeWire(js, index, v); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("DecodeWire(verify %d): %v allocs per run", v, n)
		}
	}
	if n := testing.AllocsPerRun(100, func() {
		total := 0
		for p := range w.All() {
			total += len(p.Value)
		}
		if _, ok := w.Lookup("services"); !ok || total == 0 {
			t.Fatal("lookup failed")
		}
	}); n != 0 {
		t.Errorf("All+Lookup: %v allocs per run", n)
	}

	sets := mergeLevels(t)
	var m Set
	keep := func(p Pair) bool { return p.Flags.Intrinsic() }
	if n := testing.AllocsPerRun(100, func() {
		if err := Merge(&m, sets, keep); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Merge: %v allocs per run", n)
	}
}

func BenchmarkParse10(b *testing.B) {
	text := []byte(strings.TrimSpace(string(readFile(b, "bench/parse-10.json"))))
	var s Set
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Parse(&s, text, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse10KeepOrder(b *testing.B) {
	text := []byte(strings.TrimSpace(string(readFile(b, "bench/parse-10.json"))))
	var s Set
	o := Options{KeepOrder: true}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Parse(&s, text, o); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeWireStrict(b *testing.B) {
	var s Set
	if err := Parse(&s, []byte(strings.TrimSpace(string(readFile(b, "bench/parse-10.json")))), Options{}); err != nil {
		b.Fatal(err)
	}
	index := s.AppendIndex(nil)
	var w Set
	b.SetBytes(int64(len(s.JSON) + len(index)))
	b.ReportAllocs()
	for b.Loop() {
		if err := w.DecodeWire(s.JSON, index, VerifyStrict); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMerge5(b *testing.B) {
	sets := mergeLevels(b)
	n := 0
	for _, s := range sets {
		n += len(s.JSON)
	}
	var m Set
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		if err := Merge(&m, sets, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseMerge5 parses the five level texts and merges them, the
// whole work of a client that receives label JSON without indexes.
func BenchmarkParseMerge5(b *testing.B) {
	lines := readLines(b, "bench/merge-5.jsonl")
	sets := make([]*Set, len(lines))
	for i := range sets {
		sets[i] = new(Set)
	}
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	texts := make([][]byte, len(lines))
	for i, l := range lines {
		texts[i] = []byte(l)
	}
	var m Set
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		for i, t := range texts {
			if err := Parse(sets[i], t, Options{}); err != nil {
				b.Fatal(err)
			}
		}
		if err := Merge(&m, sets, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBorrowedJSONNotWritten: after DecodeWire the Set's JSON is the
// caller's buffer; parsing or merging into the same Set afterwards must
// leave that buffer untouched, and must still reuse the Set's own buffers.
func TestBorrowedJSONNotWritten(t *testing.T) {
	pdu := []byte(`{"agent":"sample","role":"testing"}` + "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX")
	orig := string(pdu)
	js := pdu[:35]
	index := []byte{0, 2, 5, 2, 0, 9, 0, 8, 0, 19, 4, 2, 0, 25, 0, 9}
	var s Set
	other := mustParse(t, `{"zz":1}`, Options{})
	text := []byte(`{"hostname":"vm","a":[1,2,3],"m":{"x":true}}`)
	for i := 0; i < 3; i++ {
		if err := s.DecodeWire(js, index, VerifyStrict); err != nil {
			t.Fatal(err)
		}
		if err := Parse(&s, text, Options{}); err != nil {
			t.Fatal(err)
		}
		if err := s.DecodeWire(js, index, VerifyIndex); err != nil {
			t.Fatal(err)
		}
		if err := Merge(&s, []*Set{&s, other}, nil); err != nil {
			t.Fatal(err)
		}
		if err := s.DecodeWire(js, index, VerifyIndex); err != nil {
			t.Fatal(err)
		}
		if err := Merge(&s, []*Set{other, other}, nil); err != nil {
			t.Fatal(err)
		}
		if string(pdu) != orig {
			t.Fatalf("caller's buffer overwritten: %q", pdu)
		}
	}
	if n := testing.AllocsPerRun(50, func() {
		_ = s.DecodeWire(js, index, VerifyIndex)
		_ = Parse(&s, text, Options{})
		_ = s.DecodeWire(js, index, VerifyIndex)
		_ = Merge(&s, []*Set{&s, other}, nil)
	}); n != 0 {
		t.Errorf("alternating DecodeWire/Parse/Merge: %v allocs per run", n)
	}
}
