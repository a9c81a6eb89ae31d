package pcp

import "math"

// Atom is one metric value after extraction, tagged with its type: the Go
// counterpart of libpcp's pmAtomValue union. Numeric values are held by
// value; STRING and AGGREGATE values are views of the bytes they were
// extracted from (valid while those bytes are, see Clone).
//
// The zero Atom is a 32-bit 0.
type Atom struct {
	// An Atom is two words and a slice, 32 bytes, because the compiler
	// keeps a struct of at most 32 bytes in registers and copies a larger
	// one through memory at every call; with a separate type field the
	// copies cost more than extracting the value. So the type shares
	// the fields: a number has its bits in num and, in buf, an empty view
	// of numTypes whose capacity is its type + 1; a STRING or AGGREGATE
	// has its bytes in buf and its type in num.
	num uint64
	buf []byte
}

// numTypes backs the empty buf of numeric atoms. It is never written:
// Bytes and Clone do not hand that buf out.
var numTypes [TypeDouble + 1]byte

// number returns a numeric atom of type t (Type32 to TypeDouble) holding
// bits.
func number(t Type, bits uint64) Atom { return Atom{num: bits, buf: numTypes[: 0 : t+1]} }

// numeric reports whether a holds a number (the zero Atom does too, with
// type Type32, as its num says).
func (a Atom) numeric() bool {
	return len(a.buf) == 0 && cap(a.buf) > 0 && &a.buf[:1][0] == &numTypes[0]
}

// AtomInt32 returns a PM_TYPE_32 atom.
func AtomInt32(v int32) Atom { return number(Type32, uint64(uint32(v))) }

// AtomUint32 returns a PM_TYPE_U32 atom.
func AtomUint32(v uint32) Atom { return number(TypeU32, uint64(v)) }

// AtomInt64 returns a PM_TYPE_64 atom.
func AtomInt64(v int64) Atom { return number(Type64, uint64(v)) }

// AtomUint64 returns a PM_TYPE_U64 atom.
func AtomUint64(v uint64) Atom { return number(TypeU64, v) }

// AtomFloat32 returns a PM_TYPE_FLOAT atom.
func AtomFloat32(v float32) Atom { return number(TypeFloat, uint64(math.Float32bits(v))) }

// AtomFloat64 returns a PM_TYPE_DOUBLE atom.
func AtomFloat64(v float64) Atom { return number(TypeDouble, math.Float64bits(v)) }

// AtomString returns a PM_TYPE_STRING atom viewing b (no NUL terminator).
func AtomString(b []byte) Atom { return Atom{num: uint64(TypeString), buf: b} }

// AtomAggregate returns a PM_TYPE_AGGREGATE atom viewing b.
func AtomAggregate(b []byte) Atom { return Atom{num: uint64(TypeAggregate), buf: b} }

// Type returns the atom's type.
func (a Atom) Type() Type {
	if a.numeric() {
		return Type(cap(a.buf) - 1)
	}
	return Type(a.num)
}

// The numeric accessors read the stored bits at their own width, as a C
// program reads a pmAtomValue union member: call the one matching Type.

// Int32 returns the value of a 32 atom.
func (a Atom) Int32() int32 { return int32(uint32(a.num)) }

// Uint32 returns the value of a U32 atom.
func (a Atom) Uint32() uint32 { return uint32(a.num) }

// Int64 returns the value of a 64 atom.
func (a Atom) Int64() int64 { return int64(a.num) }

// Uint64 returns the value of a U64 atom.
func (a Atom) Uint64() uint64 { return a.num }

// Float32 returns the value of a FLOAT atom.
func (a Atom) Float32() float32 { return math.Float32frombits(uint32(a.num)) }

// Float64 returns the value of a DOUBLE atom.
func (a Atom) Float64() float64 { return math.Float64frombits(a.num) }

// Bytes returns the bytes of a STRING or AGGREGATE atom (nil for numeric
// atoms). The slice aliases the extracted input.
func (a Atom) Bytes() []byte {
	if a.numeric() {
		return nil
	}
	return a.buf
}

// Clone returns a copy of a whose bytes no longer alias the input.
func (a Atom) Clone() Atom {
	if !a.numeric() && a.buf != nil {
		a.buf = append([]byte{}, a.buf...)
	}
	return a
}
