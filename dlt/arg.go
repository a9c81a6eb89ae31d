package dlt

import (
	"encoding/binary"
	"math"
)

// Arg is a view of one verbose argument. Name, Unit and Bytes alias the
// message's buffer (valid until it is modified or reused; see
// [Arg.Clone]). The typed accessors never fail: they return the zero
// value when the argument is of another kind.
type Arg struct {
	p     []byte // the argument's bytes, from its type info word on
	off   int    // input offset of the type info word
	info  uint32
	big   bool
	name  span // VARI name without its NUL
	unit  span // VARI unit without its NUL
	quant span // FIXP quantisation (4 bytes)
	fixo  span // FIXP offset (4, 8 or 16 bytes)
	value span // value bytes; strings without their NUL
}

// span locates a field inside Arg.p; keeping offsets instead of slices
// makes Arg small to copy, which is most of the cost per argument. n is
// -1 for an absent field, so its accessor returns nil.
type span struct{ at, n int32 }

var absent = span{n: -1}

func (a Arg) slice(s span) []byte {
	if s.n < 0 {
		return nil
	}
	end := s.at + s.n
	return a.p[s.at:end:end]
}

// Raw returns the argument's wire bytes, from its type info word to its
// end, for copying it unchanged into a message of the same byte order
// ([Builder.Bytes]).
func (a Arg) Raw() []byte { return a.p }

// TypeInfo is the raw type info word.
func (a Arg) TypeInfo() uint32 { return a.info }

// Kind is what the argument holds.
func (a Arg) Kind() Kind { return kindOf(a.info) }

// Bits is the value's size in bits for bool and numeric kinds (8 to 128),
// 0 for strings, raw data and trace info.
func (a Arg) Bits() int {
	if valueSize(a.Kind(), a.info) <= 0 {
		return 0
	}
	return 8 << (a.info&TypeLenMask - 1)
}

// Coding is the SCOD field: ASCII or UTF-8 for strings, hex or binary
// display for unsigned integers.
func (a Arg) Coding() Coding { return Coding(a.info & TypeCodeMask >> typeCodeShift) }

// Order reports the byte order of the argument's lengths and value (the
// message's MSBF flag): binary.BigEndian or binary.LittleEndian.
func (a Arg) Order() binary.ByteOrder { return orderOf(a.big) }

// Offset is the input offset of the argument's type info word.
func (a Arg) Offset() int { return a.off }

// HasVarInfo reports the VARI flag (name, and unit for numbers, present).
func (a Arg) HasVarInfo() bool { return a.info&TypeVarInfo != 0 }

// Name is the VARI name without its terminating NUL (nil without VARI).
func (a Arg) Name() []byte { return a.slice(a.name) }

// Unit is the VARI unit of a number without its terminating NUL.
func (a Arg) Unit() []byte { return a.slice(a.unit) }

// Bytes is the value: the bytes of a string (without the terminating
// NUL), raw data or trace info, or the wire bytes of a number or bool.
func (a Arg) Bytes() []byte { return a.slice(a.value) }

// Bool returns a bool argument's value (any nonzero byte is true).
func (a Arg) Bool() bool { return a.Kind() == KindBool && a.p[a.value.at] != 0 }

// Uint returns an integer's value as uint64: sign-extended for signed
// integers, the low 64 bits for 128-bit ones, 0 for other kinds.
func (a Arg) Uint() uint64 {
	k := a.Kind()
	if k != KindSigned && k != KindUnsigned {
		return 0
	}
	_, lo := a.uint128()
	if n := a.value.n; k == KindSigned && n < 16 {
		shift := 64 - 8*uint(n)
		return uint64(int64(lo<<shift) >> shift)
	}
	return lo
}

// Int returns an integer's value as int64 (see [Arg.Uint]).
func (a Arg) Int() int64 { return int64(a.Uint()) }

// Uint128 returns an integer's value as two 64-bit halves; shorter
// integers are sign- or zero-extended.
func (a Arg) Uint128() (hi, lo uint64) {
	k := a.Kind()
	if k != KindSigned && k != KindUnsigned {
		return 0, 0
	}
	if a.value.n == 16 {
		return a.uint128()
	}
	lo = a.Uint()
	if k == KindSigned && int64(lo) < 0 {
		hi = math.MaxUint64
	}
	return hi, lo
}

// uint128 reads the value bytes zero-extended.
func (a Arg) uint128() (hi, lo uint64) {
	v := a.Bytes()
	if len(v) == 16 {
		if a.big {
			return be64(v), be64(v[8:])
		}
		return le64(v[8:]), le64(v)
	}
	return 0, readUint(v, a.big)
}

// readUint reads 1, 2, 4 or 8 bytes zero-extended.
func readUint(v []byte, big bool) uint64 {
	switch len(v) {
	case 1:
		return uint64(v[0])
	case 2:
		if big {
			return uint64(be16(v))
		}
		return uint64(le16(v))
	case 4:
		if big {
			return uint64(be32(v))
		}
		return uint64(le32(v))
	case 8:
		if big {
			return be64(v)
		}
		return le64(v)
	}
	return 0
}

// Float returns a float's value: exact for 16, 32 and 64 bits, rounded
// toward zero to float64 precision for 128 bits; 0 for other kinds.
func (a Arg) Float() float64 {
	if a.Kind() != KindFloat {
		return 0
	}
	v := a.Bytes()
	switch len(v) {
	case 2:
		return float16to64(uint16(readUint(v, a.big)))
	case 4:
		return float64(math.Float32frombits(uint32(readUint(v, a.big))))
	case 8:
		return math.Float64frombits(readUint(v, a.big))
	}
	hi, lo := a.uint128()
	return float128to64(hi, lo)
}

// HasFixedPoint reports the FIXP flag (integers only).
func (a Arg) HasFixedPoint() bool { return a.fixo.n > 0 }

// Quantization is the FIXP quantisation factor (0 without FIXP).
func (a Arg) Quantization() float32 {
	if a.quant.n <= 0 {
		return 0
	}
	return math.Float32frombits(uint32(readUint(a.slice(a.quant), a.big)))
}

// FixedOffset is the FIXP offset, sign-extended; for 128-bit integers
// only its low 64 bits (see [Arg.FixedOffsetBytes]).
func (a Arg) FixedOffset() int64 {
	v := a.FixedOffsetBytes()
	switch len(v) {
	case 4:
		return int64(int32(readUint(v, a.big)))
	case 8:
		return int64(readUint(v, a.big))
	case 16:
		if a.big {
			return int64(be64(v[8:]))
		}
		return int64(le64(v))
	}
	return 0
}

// FixedOffsetBytes is the FIXP offset's wire bytes (4, 8 or 16).
func (a Arg) FixedOffsetBytes() []byte { return a.slice(a.fixo) }

// Clone returns a copy whose views no longer alias the input.
func (a Arg) Clone() Arg {
	if a.p != nil {
		a.p = append(make([]byte, 0, len(a.p)), a.p...)
	}
	return a
}

// float16to64 converts IEEE 754 binary16 bits exactly.
func float16to64(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h >> 10 & 0x1F)
	frac := float64(h & 0x3FF)
	switch exp {
	case 0:
		return sign * math.Ldexp(frac, -24)
	case 0x1F:
		if frac != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	}
	return sign * math.Ldexp(1024+frac, exp-25)
}

// float128to64 converts IEEE 754 binary128 bits, truncating the 112-bit
// fraction to 52 bits.
func float128to64(hi, lo uint64) float64 {
	neg := hi>>63 != 0
	exp := int(hi >> 48 & 0x7FFF)
	// Top 52 bits of the 112-bit fraction: 48 from hi, 4 from lo.
	frac := (hi&(1<<48-1))<<4 | lo>>60
	var v float64
	switch {
	case exp == 0x7FFF:
		if frac != 0 || lo != 0 {
			return math.NaN()
		}
		v = math.Inf(1)
	case exp == 0:
		v = 0 // binary128 subnormals are far below float64's range
	default:
		v = math.Ldexp(float64(1<<52|frac), exp-16383-52)
	}
	if neg {
		v = -v
	}
	return v
}
