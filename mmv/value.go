package mmv

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// Value is one value entry. It keeps a view of the whole file, so its
// methods read what the writer stored last; copying a Value is cheap.
type Value struct {
	Index    int  // entry index in the VALUES section
	Offset   int  // byte offset of the entry
	Metric   int  // index of its metric entry
	Instance int  // index of its instance entry, -1 for a singular metric
	Type     Type // the metric's type

	b        []byte
	big      bool
	sentinel bool
}

// Raw returns the 8-byte value word as stored (file byte order decoded).
func (v Value) Raw() uint64 { return v.u64(v.Offset) }

// Extra returns the extra word: the string slot offset for STRING, the
// negated start time in microseconds of an open ELAPSED interval.
func (v Value) Extra() int64 { return int64(v.u64(v.Offset + 8)) }

// Int returns an integer value as int64: I32 sign-extended, U32 and U64
// as stored (U64 above 2^63 wraps), I64 and ELAPSED's accumulated
// microseconds (see [Value.Elapsed] for an open interval). Float types
// are truncated; STRING gives 0.
func (v Value) Int() int64 {
	// The word read here, not by u32 or u64: one call per value where
	// mmv_read reads many (in WebAssembly neither read is inlined).
	w := binary.LittleEndian.Uint64(v.b[v.Offset:])
	lo := uint32(w)
	if v.big {
		w = bits.ReverseBytes64(w)
		lo = uint32(w >> 32)
	}
	switch v.Type {
	case TypeI32:
		return int64(int32(lo))
	case TypeU32:
		return int64(lo)
	case TypeI64, TypeU64, TypeElapsed:
		return int64(w)
	case TypeFloat, TypeDouble:
		return int64(v.Float())
	}
	return 0
}

// Uint returns U32 and U64 values exactly; other types as [Value.Int].
func (v Value) Uint() uint64 {
	switch v.Type {
	case TypeU32:
		return uint64(v.u32())
	case TypeU64:
		return v.Raw()
	}
	return uint64(v.Int())
}

// Float returns FLOAT and DOUBLE values, and integer values converted.
func (v Value) Float() float64 {
	switch v.Type {
	case TypeFloat:
		return f32(v.u32())
	case TypeDouble:
		return f64(v.Raw())
	case TypeU32, TypeU64:
		return float64(v.Uint())
	}
	return float64(v.Int())
}

// Text returns a STRING value's text, a view of at most 255 bytes up
// to the first NUL of its slot (nil for other types, or if the writer
// moved the slot outside the file).
func (v Value) Text() []byte {
	if v.Type != TypeString {
		return nil
	}
	r := File{b: v.b}
	return r.cstring(uint64(v.Extra()), StringSize)
}

// Elapsed returns an ELAPSED value as pmdammv computes it at the time
// nowMicros (microseconds since the Unix epoch): the accumulated value,
// plus the time since the start of an open interval (extra < 0).
func (v Value) Elapsed(nowMicros int64) int64 {
	val, extra := int64(v.Raw()), v.Extra()
	if extra < 0 {
		return val + nowMicros + extra
	}
	return val
}

// Missing reports whether the value means "no value": only in files with
// [FlagSentinel], when integer and ELAPSED values have all 64 bits set,
// FLOAT and DOUBLE values are NaN (pmdammv 6.3.1 and later; 6.0.3 exports
// the NaN) or a STRING is empty.
func (v Value) Missing() bool {
	if !v.sentinel {
		return false
	}
	switch v.Type {
	case TypeFloat:
		return math.IsNaN(f32(v.u32()))
	case TypeDouble:
		return math.IsNaN(f64(v.Raw()))
	case TypeString:
		s := v.Text()
		return len(s) == 0
	}
	return v.Raw() == math.MaxUint64
}

func (v Value) u32() uint32 {
	if v.big {
		return binary.BigEndian.Uint32(v.b[v.Offset:])
	}
	return binary.LittleEndian.Uint32(v.b[v.Offset:])
}

// u64 reads the word at off little-endian and swaps it in a big-endian
// file: one read, where a read in each order is twice the code.
func (v Value) u64(off int) uint64 {
	w := binary.LittleEndian.Uint64(v.b[off:])
	if v.big {
		w = bits.ReverseBytes64(w)
	}
	return w
}
