package eventrec

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/pcp"
	"sigs.k8s.io/randfill"
)

// realArrays returns every event array in testdata: the conv05 blocks,
// the arrays of the recorded live runs and the QA PDU's.
func realArrays(t testing.TB) [][]byte {
	t.Helper()
	var out [][]byte
	files, _ := filepath.Glob("testdata/*.bin")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f, "EVENT.bin") {
			out = append(out, b)
			continue
		}
		pdus, _ := splitPDUs(b)
		for _, pdu := range pdus {
			if typ := pduType(pdu); typ != pduResult && typ != pduHighResResult {
				continue
			}
			blocks, _ := eventBlocks(pdu)
			for _, blk := range blocks {
				if a, err := Parse(pdu[blk.off:], Options{}); err == nil {
					out = append(out, a.Bytes())
				}
			}
		}
	}
	return out
}

// FuzzParse feeds arbitrary bytes to the validating reader. Invariants:
// no panic; a valid array iterates the same way through All, Records and
// the Scanner; the builder re-encodes it to an array that parses to the
// same records, byte-identical to the input outside pad and slack.
func FuzzParse(f *testing.F) {
	for _, b := range realArrays(f) {
		f.Add(b, false)
	}
	f.Add([]byte{9, 0, 0, 8, 0, 0, 0, 0}, true)
	f.Fuzz(func(t *testing.T, in []byte, lenient bool) {
		a, err := Parse(in[:len(in):len(in)], Options{Lenient: lenient})
		var u Unpacker
		one, uerr := u.UnpackBytes(in[:len(in):len(in)], Options{Lenient: lenient})
		if (err == nil) != (uerr == nil) || err != nil && err.Error() != uerr.Error() {
			t.Fatalf("UnpackBytes failed with %v, Parse with %v", uerr, err)
		}
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error %T is not a *ParseError", err)
			}
			return
		}
		n := 0
		for r, err := range a.All() {
			if err != nil {
				t.Fatalf("All failed after Parse succeeded: %v", err)
			}
			np := 0
			for range r.Params() {
				np++
			}
			if np != r.NumParams() {
				t.Fatalf("record %d: %d params, header %d", n, np, r.NumParams())
			}
			n++
		}
		if n != a.Len() {
			t.Fatalf("%d records, header %d", n, a.Len())
		}
		// One pass or two, the same results.
		one = append([]Result(nil), one...)
		res := new(Unpacker).Unpack(a)
		if len(res) != n {
			t.Fatalf("unpacked %d of %d", len(res), n)
		}
		if !reflect.DeepEqual(one, res) {
			t.Fatal("UnpackBytes and Parse + Unpack give different results")
		}
		out, err := AppendArray(nil, a)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		b, err := Parse(out, Options{Lenient: lenient})
		if err != nil {
			t.Fatalf("re-encoded array rejected: %v", err)
		}
		if !sameRecords(a, b) {
			t.Fatal("re-encoded array decodes differently")
		}
		if a.Slack() == 0 && len(a.Bytes())%4 == 0 {
			mask := padMask(a)
			for i := range out {
				if !mask[i] && out[i] != in[i] {
					t.Fatalf("byte %d differs after re-encoding", i)
				}
			}
		}
	})
}

// sameRecords compares two arrays record by record, parameter by
// parameter.
func sameRecords(a, b Array) bool {
	if a.Type() != b.Type() || a.Len() != b.Len() {
		return false
	}
	sa, sb := a.Scanner(), b.Scanner()
	for sa.Next() {
		if !sb.Next() {
			return false
		}
		ra, rb := sa.Record(), sb.Record()
		if ra.Seconds() != rb.Seconds() || ra.Fraction() != rb.Fraction() || ra.Flags() != rb.Flags() || ra.NumParams() != rb.NumParams() {
			return false
		}
		if na, ok := ra.Missed(); ok {
			if nb, _ := rb.Missed(); na != nb {
				return false
			}
		}
		pa, pb := ra.ParamScanner(), rb.ParamScanner()
		for pa.Next() {
			if !pb.Next() {
				return false
			}
			x, y := pa.Param(), pb.Param()
			if x.ID != y.ID || x.Type != y.Type || !bytes.Equal(x.Value, y.Value) {
				return false
			}
		}
	}
	return !sb.Next() && sa.Err() == nil && sb.Err() == nil
}

// Structures randfill fills for FuzzBuilderRoundTrip.
type (
	fillArray struct {
		HighRes bool
		Records []fillRecord
	}
	fillRecord struct {
		Sec, Frac int64
		Flags     uint32
		Missed    bool
		Lost      int32
		Params    []fillParam
	}
	fillParam struct {
		ID    uint32
		Kind  uint8
		Num   uint64
		Bytes []byte
	}
)

var fillTypes = [...]pcp.Type{pcp.Type32, pcp.TypeU32, pcp.Type64, pcp.TypeU64, pcp.TypeFloat, pcp.TypeDouble, pcp.TypeString, pcp.TypeAggregate}

// FuzzBuilderRoundTrip fills a Go description of an array with randfill,
// builds it, parses it and compares every field with the description.
func FuzzBuilderRoundTrip(f *testing.F) {
	f.Add([]byte("seed"))
	for _, b := range realArrays(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var in fillArray
		randfill.NewFromGoFuzz(data).NilChance(0).NumElements(0, 6).Fill(&in)
		typ := pcp.TypeEvent
		if in.HighRes {
			typ = pcp.TypeHighResEvent
		}
		// Bring the description inside what a valid array can carry.
		for i := range in.Records {
			r := &in.Records[i]
			if in.HighRes {
				r.Frac = int64(uint64(r.Frac) % 1e9)
			} else {
				r.Sec = int64(int32(r.Sec))
				r.Frac = int64(uint64(r.Frac) % 1e6)
			}
			r.Flags &^= uint32(FlagMissed)
			if r.Lost < 0 {
				r.Lost = -(r.Lost + 1)
			}
		}
		b := NewBuilder(nil, typ)
		for _, r := range in.Records {
			if r.Missed {
				b.AddMissed(r.Sec, r.Frac, r.Lost)
				continue
			}
			b.AddRecord(r.Sec, r.Frac, Flags(r.Flags))
			for _, p := range r.Params {
				id := pcp.ID(p.ID)
				switch fillTypes[int(p.Kind)%len(fillTypes)] {
				case pcp.Type32:
					b.AddInt32(id, int32(p.Num))
				case pcp.TypeU32:
					b.AddUint32(id, uint32(p.Num))
				case pcp.Type64:
					b.AddInt64(id, int64(p.Num))
				case pcp.TypeU64:
					b.AddUint64(id, p.Num)
				case pcp.TypeFloat:
					b.AddFloat32(id, math.Float32frombits(uint32(p.Num)))
				case pcp.TypeDouble:
					b.AddFloat64(id, math.Float64frombits(p.Num))
				case pcp.TypeString:
					b.AddString(id, string(p.Bytes))
				case pcp.TypeAggregate:
					b.AddAggregate(id, p.Bytes)
				}
			}
		}
		out, err := b.Finish()
		if err != nil {
			t.Fatalf("Finish: %v", err)
		}
		a, err := Parse(out, Options{})
		if err != nil {
			t.Fatalf("Parse of built array: %v", err)
		}
		if a.Len() != len(in.Records) || a.Slack() != 0 || a.Type() != typ {
			t.Fatalf("%d records (want %d), slack %d", a.Len(), len(in.Records), a.Slack())
		}
		i := 0
		for r := range a.Records() {
			w := in.Records[i]
			i++
			if r.Seconds() != w.Sec || r.Fraction() != w.Frac {
				t.Fatalf("record %d: time %d.%d, want %d.%d", i, r.Seconds(), r.Fraction(), w.Sec, w.Frac)
			}
			if w.Missed {
				if n, ok := r.Missed(); !ok || n != w.Lost {
					t.Fatalf("record %d: missed %d %v, want %d", i, n, ok, w.Lost)
				}
				continue
			}
			if uint32(r.Flags()) != w.Flags || r.NumParams() != len(w.Params) {
				t.Fatalf("record %d: flags %#x params %d", i, uint32(r.Flags()), r.NumParams())
			}
			j := 0
			for p := range r.Params() {
				wp := w.Params[j]
				j++
				if p.ID != pcp.ID(wp.ID) || p.Type != fillTypes[int(wp.Kind)%len(fillTypes)] || !sameValue(p, wp) {
					t.Fatalf("record %d param %d: %+v, want %+v", i, j, p, wp)
				}
			}
		}
		again, err := AppendArray(nil, a)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("AppendArray differs: %v", err)
		}
	})
}

func sameValue(p Param, w fillParam) bool {
	switch p.Type {
	case pcp.Type32:
		v, ok := p.Int32()
		return ok && v == int32(w.Num)
	case pcp.TypeU32:
		v, ok := p.Uint32()
		return ok && v == uint32(w.Num)
	case pcp.Type64:
		v, ok := p.Int64()
		return ok && v == int64(w.Num)
	case pcp.TypeU64:
		v, ok := p.Uint64()
		return ok && v == w.Num
	case pcp.TypeFloat:
		v, ok := p.Float32()
		return ok && math.Float32bits(v) == uint32(w.Num)
	case pcp.TypeDouble:
		v, ok := p.Float64()
		return ok && math.Float64bits(v) == w.Num
	case pcp.TypeString:
		v, ok := p.Text()
		return ok && bytes.Equal(v, w.Bytes)
	case pcp.TypeAggregate:
		v, ok := p.Aggregate()
		return ok && bytes.Equal(v, w.Bytes)
	}
	return false
}

// TestModifiedAfterParse checks that changing the bytes under a parsed
// Array gives errors or odd values, never a panic.
func TestModifiedAfterParse(t *testing.T) {
	for _, orig := range realArrays(t) {
		for i := 8; i < len(orig); i++ {
			for _, v := range []byte{0x00, 0xff, 0x7f} {
				buf := bytes.Clone(orig)
				a, err := Parse(buf, Options{})
				if err != nil {
					t.Fatal(err)
				}
				buf[i] = v
				for r := range a.All() {
					for range r.Params() {
					}
				}
				new(Unpacker).Unpack(a)
				_, _ = AppendArray(nil, a)
			}
		}
	}
}
