package pcp

import (
	"math"
	"testing"
)

// TestAtomTypes checks the shared-field representation: every constructor
// reports its own type, numbers expose no bytes, and STRING/AGGREGATE
// atoms of any length (empty ones with spare capacity included) keep
// their type and bytes.
func TestAtomTypes(t *testing.T) {
	spare := make([]byte, 0, 16)
	cases := []struct {
		a    Atom
		want Type
		b    []byte
	}{
		{Atom{}, Type32, nil},
		{AtomInt32(-7), Type32, nil},
		{AtomUint32(math.MaxUint32), TypeU32, nil},
		{AtomInt64(math.MinInt64), Type64, nil},
		{AtomUint64(math.MaxUint64), TypeU64, nil},
		{AtomFloat32(1.5), TypeFloat, nil},
		{AtomFloat64(math.Inf(-1)), TypeDouble, nil},
		{AtomString([]byte("abc")), TypeString, []byte("abc")},
		{AtomString(spare), TypeString, spare},
		{AtomString(nil), TypeString, nil},
		{AtomAggregate(spare[:0:1]), TypeAggregate, spare[:0:1]},
		{AtomAggregate([]byte{1, 2}), TypeAggregate, []byte{1, 2}},
	}
	for i, c := range cases {
		if got := c.a.Type(); got != c.want {
			t.Errorf("%d: Type %v, want %v", i, got, c.want)
		}
		if got := c.a.Bytes(); string(got) != string(c.b) || (got == nil) != (c.b == nil) {
			t.Errorf("%d: Bytes %q, want %q", i, got, c.b)
		}
		if got := c.a.Clone(); got.Type() != c.want || string(got.Bytes()) != string(c.b) {
			t.Errorf("%d: Clone %v %q", i, got.Type(), got.Bytes())
		}
	}
	if AtomInt64(math.MinInt64).Int64() != math.MinInt64 || AtomUint64(math.MaxUint64).Uint64() != math.MaxUint64 ||
		AtomInt32(-7).Int32() != -7 || AtomFloat32(1.5).Float32() != 1.5 || !math.IsInf(AtomFloat64(math.Inf(-1)).Float64(), -1) {
		t.Error("a numeric atom lost its value")
	}
	for _, n := range numTypes {
		if n != 0 {
			t.Fatal("numTypes was written to")
		}
	}
}
