package pcp

import (
	"encoding/binary"
	"math"

	"github.com/perfwire/perfwire/internal/wire"
)

// ParseError is the error type of [Extract]: an alias of the shared
// internal/wire error, with format "pcp", the field that failed ("type",
// "block" or "value") and a kind that matches both internal/wire's shared
// kind and the PM_ERR_* code libpcp's pmExtractValue returns for the
// failure; the kind reads as that code's pmErrStr text.
type ParseError = wire.Error

// The shared error kinds Extract's failures match, besides their PM_ERR_*
// codes. internal/wire's third, the type kind, has no alias here because
// [ErrType] is PM_ERR_TYPE; match an impossible conversion with [ErrConv].
var (
	// ErrRange: the value does not fit the output type ([ErrTrunc]) or is
	// negative for an unsigned one ([ErrSign]).
	ErrRange = wire.ErrRange
	// ErrLength: a value block whose payload has the wrong size for its
	// type ([ErrConv]).
	ErrLength = wire.ErrLength
)

// extractKind is the kind of an Extract failure: a shared wire kind and
// the PM_ERR_* code, both found by errors.Is and errors.As, reading as the
// code's message. It names the wire kind by number and reads the variable
// only when asked, so the errors below are static data that a program
// without Extract does not link (a dynamic initialisation would pull in
// Code's message tables).
type extractKind struct {
	code Code
	kind uint8 // kindType, kindLength or kindRange
}

const (
	kindType = iota
	kindLength
	kindRange
)

func (k *extractKind) wireKind() *wire.Kind {
	switch k.kind {
	case kindLength:
		return wire.ErrLength
	case kindRange:
		return wire.ErrRange
	}
	return wire.ErrType
}

func (k *extractKind) Error() string { return k.code.Error() }

// Is matches the PM_ERR_* code and the wire kind.
func (k *extractKind) Is(target error) bool {
	if c, ok := target.(Code); ok {
		return c == k.code
	}
	if w, ok := target.(*wire.Kind); ok {
		return w == k.wireKind()
	}
	return false
}

// As answers for a *wire.Kind (the kind's code, for the wasm ABI) and a
// Code.
func (k *extractKind) As(target any) bool {
	switch p := target.(type) {
	case **wire.Kind:
		*p = k.wireKind()
		return true
	case *Code:
		*p = k.code
		return true
	}
	return false
}

// Extract's errors are static, so that failing allocates nothing either;
// callers must not modify them.
var (
	errConv    = &ParseError{Format: "pcp", Field: "type", Err: &extractKind{ErrConv, kindType}}
	errConvLen = &ParseError{Format: "pcp", Field: "block", Err: &extractKind{ErrConv, kindLength}}
	errTrunc   = &ParseError{Format: "pcp", Field: "value", Err: &extractKind{ErrTrunc, kindRange}}
	errSign    = &ParseError{Format: "pcp", Field: "value", Err: &extractKind{ErrSign, kindRange}}
)

// Raw is one value as it travels in a value set: either the 32-bit insitu
// word (valfmt INSITU) or the payload of a value block (valfmt DPTR or
// SPTR: the vlen−4 bytes after the block header, big-endian as on the
// wire).
type Raw struct {
	Insitu bool
	Word   uint32 // the insitu word, when Insitu
	Block  []byte // the value-block payload, when !Insitu
}

// Extract converts a value of type in to an Atom of type out, as libpcp's
// pmExtractValue does (docs/pcp-pdu.md §6.4):
//
//   - insitu words carry 32, U32, UNKNOWN (read as 32) and, from old
//     peers, FLOAT; value blocks carry 64, U64, DOUBLE and FLOAT, whose
//     payload must be exactly 8 (4 for FLOAT) bytes, STRING and AGGREGATE;
//   - numeric types convert to each other; a negative value for an
//     unsigned output fails with [ErrSign], a value too large for the
//     output with [ErrTrunc] (both also [ErrRange], field "value");
//     conversions to floating point may round;
//   - STRING converts only to STRING (the bytes up to the first NUL, as a
//     C reader sees them) and AGGREGATE only to AGGREGATE (the whole
//     payload); anything else, event arrays included, fails with
//     [ErrConv] (field "type"); a fixed-size value block of the wrong
//     size fails with [ErrConv] and [ErrLength] (field "block").
//
// Errors are *[ParseError] values at offset 0 of the value. Where libpcp
// does not check (a 64-bit value below −2³¹ converted to 32, NaN to an
// integer) the result is what libpcp computes on x86-64: the low 32 bits,
// or the integer-indefinite value. Extract never allocates, not even to
// fail; the atom of a STRING or AGGREGATE aliases r.Block.
func Extract(r Raw, in, out Type) (Atom, error) {
	// The common case, a value read as its own type, is answered here
	// without the general path's call. Extract itself does not inline
	// (cost 146, budget 80: the call to extract alone costs 57).
	if in == out {
		if r.Insitu && uint32(in) <= uint32(TypeU32) {
			return number(in, uint64(r.Word)), nil
		}
		if len(r.Block) == 8 && !r.Insitu && in != TypeFloat && uint32(in-Type64) <= uint32(TypeDouble-Type64) {
			return number(in, binary.BigEndian.Uint64(r.Block)), nil
		}
	}
	return extract(r, in, out)
}

// extract is Extract's general path.
func extract(r Raw, in, out Type) (Atom, error) {
	if r.Insitu {
		switch in {
		case Type32, TypeUnknown:
			return fromInteger(uint64(int64(int32(r.Word))), true, out)
		case TypeU32:
			return fromInteger(uint64(r.Word), false, out)
		case TypeFloat:
			return fromFloat32(r.Word, out)
		}
		return Atom{}, errConv
	}
	b := r.Block
	switch in {
	case Type64:
		if len(b) != 8 {
			return Atom{}, errConvLen
		}
		return fromInteger(be64(b), true, out)
	case TypeU64:
		if len(b) != 8 {
			return Atom{}, errConvLen
		}
		return fromInteger(be64(b), false, out)
	case TypeDouble:
		if len(b) != 8 {
			return Atom{}, errConvLen
		}
		return fromFloat(math.Float64frombits(be64(b)), false, out)
	case TypeFloat:
		if len(b) != 4 {
			return Atom{}, errConvLen
		}
		return fromFloat32(be32(b), out)
	case TypeString:
		if out != TypeString {
			return Atom{}, errConv
		}
		for i, c := range b {
			if c == 0 {
				b = b[:i]
				break
			}
		}
		return AtomString(b), nil
	case TypeAggregate:
		if out != TypeAggregate {
			return Atom{}, errConv
		}
		return AtomAggregate(b), nil
	}
	return Atom{}, errConv
}

// fromInteger converts an integer input (32, U32, 64 or U64) held in v,
// signed saying whether v's bits are an int64. A negative input is never
// truncated into a 32-bit signed output, only its upper bound is checked,
// as in libpcp.
func fromInteger(v uint64, signed bool, out Type) (Atom, error) {
	neg := signed && int64(v) < 0
	switch out {
	case Type32:
		if !neg && v > math.MaxInt32 {
			return Atom{}, errTrunc
		}
		return AtomInt32(int32(v)), nil
	case TypeU32:
		if neg {
			return Atom{}, errSign
		}
		if v > math.MaxUint32 {
			return Atom{}, errTrunc
		}
		return AtomUint32(uint32(v)), nil
	case Type64:
		if !signed && v > math.MaxInt64 {
			return Atom{}, errTrunc
		}
		return AtomInt64(int64(v)), nil
	case TypeU64:
		if neg {
			return Atom{}, errSign
		}
		return AtomUint64(v), nil
	case TypeFloat:
		if signed {
			return AtomFloat32(float32(int64(v))), nil
		}
		return AtomFloat32(float32(v)), nil
	case TypeDouble:
		if signed {
			return AtomFloat64(float64(int64(v))), nil
		}
		return AtomFloat64(float64(v)), nil
	}
	return Atom{}, errConv
}

// Powers of two used as the truncation limits; libpcp compares against
// the integer limits converted to the input's float type, which round up
// to these, except for a DOUBLE input to 32 and U32.
const (
	two31 = 1 << 31
	two32 = 1 << 32
	two63 = 1 << 63
	two64 = 1 << 64
)

// fromFloat32 converts a FLOAT input given as its bits. FLOAT to FLOAT is
// a plain copy in libpcp, so a signalling NaN keeps its bits.
func fromFloat32(bits uint32, out Type) (Atom, error) {
	if out == TypeFloat {
		return number(TypeFloat, uint64(bits)), nil
	}
	return fromFloat(float64(math.Float32frombits(bits)), true, out)
}

// fromFloat converts a FLOAT (single) or DOUBLE input held in v.
func fromFloat(v float64, single bool, out Type) (Atom, error) {
	nan := v != v
	switch out {
	case Type32:
		lim := float64(math.MaxInt32)
		if single {
			lim = two31
		}
		if math.Abs(v) >= lim {
			return Atom{}, errTrunc
		}
		if nan {
			return AtomInt32(math.MinInt32), nil
		}
		return AtomInt32(int32(v)), nil
	case TypeU32:
		lim := float64(math.MaxUint32)
		if single {
			lim = two32
		}
		if v >= lim {
			return Atom{}, errTrunc
		}
		if v < 0 {
			return Atom{}, errSign
		}
		if nan {
			return AtomUint32(0), nil
		}
		return AtomUint32(uint32(v)), nil
	case Type64:
		if v >= two63 {
			return Atom{}, errTrunc
		}
		if nan || v < -two63 {
			return AtomInt64(math.MinInt64), nil
		}
		return AtomInt64(int64(v)), nil
	case TypeU64:
		if v >= two64 {
			return Atom{}, errTrunc
		}
		if v < 0 {
			return Atom{}, errSign
		}
		if nan {
			return AtomUint64(1 << 63), nil
		}
		return AtomUint64(uint64(v)), nil
	case TypeFloat:
		return AtomFloat32(float32(v)), nil
	case TypeDouble:
		return AtomFloat64(v), nil
	}
	return Atom{}, errConv
}

// be32 and be64 read big-endian words from b, whose length the caller has
// checked. They stand in for encoding/binary, which pulls reflect into
// wasm builds.
func be32(b []byte) uint32 {
	_ = b[3]
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

func be64(b []byte) uint64 {
	_ = b[7]
	return uint64(be32(b))<<32 | uint64(be32(b[4:]))
}
