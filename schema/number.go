package schema

import "math"

// MessagePack's integers, string and array headers in the forms msgp's
// append functions write (the smallest form for a number), without msgp's
// calls: msgp's append functions call a room check and a store per form,
// and these share appendBE instead (module size, and a RESULT stream is
// mostly such numbers; see wasm/size). TestNumbers checks every form
// against msgp's bytes.

// AppendInt32 appends v as msgp.AppendInt64 does: a fixint here, with
// no call (it inlines), the other forms in AppendInt32Wide.
func AppendInt32(b []byte, v int32) []byte {
	if v >= -32 && v <= math.MaxInt8 {
		return append(b, byte(v))
	}
	return AppendInt32Wide(b, v)
}

// AppendInt32Wide appends a v that is no fixint as msgp.AppendInt64 does:
// half of a RESULT stream's values, their bytes stored directly (through
// AppendInt64 and appendBE they took twice as long in Node).
func AppendInt32Wide(b []byte, v int32) []byte {
	switch {
	case v >= math.MinInt8 && v < 0:
		return append(b, 0xd0, byte(v))
	case v >= math.MinInt16 && v <= math.MaxInt16:
		return append(b, 0xd1, byte(v>>8), byte(v))
	}
	return append(b, 0xd2, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
}

// AppendInt64 appends v as msgp.AppendInt64 does: a fixint, or the
// smallest signed form that holds v (positive numbers too).
func AppendInt64(b []byte, v int64) []byte {
	tag, n := byte(0xd3), uint(8)
	switch {
	case v >= -32 && v <= math.MaxInt8:
		return append(b, byte(v))
	case v >= math.MinInt8 && v < 0:
		return append(b, 0xd0, byte(v))
	case v >= math.MinInt16 && v <= math.MaxInt16:
		tag, n = 0xd1, 2
	case v >= math.MinInt32 && v <= math.MaxInt32:
		tag, n = 0xd2, 4
	}
	return appendBE(b, tag, uint64(v), n)
}

// AppendUint64 appends v as msgp.AppendUint64 does: a positive fixint,
// or the smallest unsigned form that holds v.
func AppendUint64(b []byte, v uint64) []byte {
	tag, n := byte(0xcf), uint(8)
	switch {
	case v <= math.MaxInt8:
		return append(b, byte(v))
	case v <= math.MaxUint8:
		return append(b, 0xcc, byte(v))
	case v <= math.MaxUint16:
		tag, n = 0xcd, 2
	case v <= math.MaxUint32:
		tag, n = 0xce, 4
	}
	return appendBE(b, tag, v, n)
}

// AppendStr appends s as a MessagePack string, as
// msgp.AppendStringFromBytes does.
func AppendStr(b, s []byte) []byte {
	n := uint64(len(s))
	switch {
	case n <= 31:
		b = append(b, 0xa0|byte(n))
	case n <= math.MaxUint8:
		b = append(b, 0xd9, byte(n))
	default:
		tag, w := byte(0xdb), uint(4)
		if n <= math.MaxUint16 {
			tag, w = 0xda, 2
		}
		b = appendBE(b, tag, n, w)
	}
	return append(b, s...)
}

// AppendArrayHeader appends the header of an array of n elements, as
// msgp.AppendArrayHeader does.
func AppendArrayHeader(b []byte, n uint32) []byte {
	if n <= 15 {
		return append(b, 0x90|byte(n))
	}
	tag, w := byte(0xdd), uint(4)
	if n <= math.MaxUint16 {
		tag, w = 0xdc, 2
	}
	return appendBE(b, tag, uint64(n), w)
}

// appendBE appends tag and the low n bytes of v, big-endian (n is 2, 4
// or 8): it writes all eight bytes of v shifted up and drops the surplus,
// one room check for every form. So it may write up to 6 bytes past
// what it keeps: into b's spare capacity, or it grows b when that is
// shorter. It inlines, so each caller picks its form's tag and width and
// calls it once (module size).
func appendBE(b []byte, tag byte, v uint64, n uint) []byte {
	x := v << (64 - 8*n)
	b = append(b, tag, byte(x>>56), byte(x>>48), byte(x>>40), byte(x>>32), byte(x>>24), byte(x>>16), byte(x>>8), byte(x))
	return b[:len(b)-int(8-n)]
}

// AppendFloat64 appends f as msgp.AppendFloat64 does.
func AppendFloat64(b []byte, f float64) []byte {
	return AppendBits64(b, math.Float64bits(f))
}

// AppendBits64 appends the float64 whose IEEE 754 bits are u, as
// msgp.AppendFloat64 does: a RESULT's double is such bits already.
func AppendBits64(b []byte, u uint64) []byte {
	return append(b, 0xcb, byte(u>>56), byte(u>>48), byte(u>>40), byte(u>>32), byte(u>>24), byte(u>>16), byte(u>>8), byte(u))
}

// AppendFields appends each key of keys (MessagePack strings back to
// back) and the value of v at its index, of the form its two bits of
// forms give (the first field's the lowest): FieldUint (as
// AppendUint64 writes it), FieldInt (AppendInt64) or FieldBool (0 or 1).
// One call for a run of keys and numbers, where a key's append and a
// number's are two at each call site. The keys are copied byte by byte:
// an append of a string is a memory.copy, which costs V8 a call.
func AppendFields(b []byte, keys string, v *[8]uint64, forms uint) []byte {
	for i, k := 0, 0; k < len(keys); i++ {
		for end := k + 1 + int(keys[k]&0x1f); k < end && k < len(keys); k++ {
			b = append(b, keys[k])
		}
		switch x, form := v[i&7], forms>>(2*i)&3; {
		case form == FieldBool:
			b = append(b, 0xc2|byte(x&1))
		case x < 0x80: // a positive fixint in both forms, without a call
			b = append(b, byte(x))
		case form == FieldInt:
			b = AppendInt64(b, int64(x))
		default:
			b = AppendUint64(b, x)
		}
	}
	return b
}

// The forms of AppendFields' values.
const (
	FieldUint = iota
	FieldInt
	FieldBool
)
