package dlt

import (
	"encoding/binary"
	"math"

	"github.com/perfwire/perfwire/internal/wire"
)

// AppendStorageHeader appends the 16-byte storage header that precedes
// each message in a .dlt file (seconds and microseconds little-endian, as
// dlt-receive writes them on every common host).
func AppendStorageHeader(dst []byte, h StorageHeader) []byte {
	dst = append(dst, storagePattern[:]...)
	dst = wire.AppendU32LE(dst, h.Seconds)
	dst = wire.AppendU32LE(dst, uint32(h.Microseconds))
	return append(dst, h.ECU[:]...)
}

// AppendSerialHeader appends "DLS\x01", the serial header.
func AppendSerialHeader(dst []byte) []byte { return append(dst, serialPattern[:]...) }

// Header describes the standard and extended header of a message to
// encode. Optional fields are written only when their With* flag is set.
type Header struct {
	Counter       uint8            // MCNT
	Order         binary.ByteOrder // MSBF: the payload's byte order; nil means little-endian
	WithECU       bool
	ECU           ID
	WithSessionID bool
	SessionID     uint32
	WithTimestamp bool
	Timestamp     uint32 // 0.1 ms since ECU start

	// Extended header: written when Extended is set (always, for
	// verbose messages).
	Extended  bool
	Verbose   bool
	Type      MessageType
	Subtype   uint8 // MTIN, e.g. LevelInfo
	AppID     ID
	ContextID ID
}

// LogHeader returns the header libdlt writes for a verbose log message
// (HTYP 0x3D: ECU, session id and timestamp; little-endian payload).
func LogHeader(ecu, app, ctid ID, level uint8, session, timestamp uint32) Header {
	return Header{
		WithECU: true, ECU: ecu,
		WithSessionID: true, SessionID: session,
		WithTimestamp: true, Timestamp: timestamp,
		Extended: true, Verbose: true, Type: TypeLog, Subtype: level,
		AppID: app, ContextID: ctid,
	}
}

// Builder encodes one message into a caller-supplied buffer: the headers
// first, then arguments one by one, then [Builder.Finish] patches LEN and
// NOAR. A failed argument is sticky: nothing more is appended and Finish
// reports it. Use it by value; it never allocates beyond growing dst.
//
//	b := dlt.AppendStorageHeader(buf, dlt.StorageHeader{Seconds: s, ECU: ecu})
//	m := dlt.NewBuilder(b, dlt.LogHeader(ecu, app, ctid, dlt.LevelInfo, pid, tmsp))
//	m.String("NEW")
//	m.String("17294;14904;sleep")
//	b, err := m.Finish()
type Builder struct {
	b     []byte
	start int // offset of the standard header
	noar  int // offset of NOAR, 0 without extended header
	args  int
	big   bool
	err   error
}

// NewBuilder appends the headers h describes to dst and returns a
// builder for the payload.
func NewBuilder(dst []byte, h Header) Builder {
	m := Builder{start: len(dst), big: isBig(h.Order)}
	htyp := uint8(htypVersion1)
	if h.Extended || h.Verbose {
		htyp |= HTYPExtended
	}
	if m.big {
		htyp |= HTYPBigEndian
	}
	if h.WithECU {
		htyp |= HTYPWithECU
	}
	if h.WithSessionID {
		htyp |= HTYPWithSID
	}
	if h.WithTimestamp {
		htyp |= HTYPWithTime
	}
	dst = append(dst, htyp, h.Counter, 0, 0)
	if h.WithECU {
		dst = append(dst, h.ECU[:]...)
	}
	if h.WithSessionID {
		dst = wire.AppendU32BE(dst, h.SessionID)
	}
	if h.WithTimestamp {
		dst = wire.AppendU32BE(dst, h.Timestamp)
	}
	if htyp&HTYPExtended != 0 {
		msin := uint8(h.Type&7)<<msinTypeShift | h.Subtype<<msinInfoShift
		if h.Verbose {
			msin |= msinVerbose
		}
		m.noar = len(dst) + 1
		dst = append(dst, msin, 0)
		dst = append(dst, h.AppID[:]...)
		dst = append(dst, h.ContextID[:]...)
	}
	m.b = dst
	return m
}

// Arg appends one argument described by spec.
func (m *Builder) Arg(spec ArgSpec) {
	if m.err != nil {
		return
	}
	m.b, m.err = AppendArg(m.b, spec, orderOf(m.big))
	m.args++
}

// String appends an ASCII string argument (libdlt's dlt_user_log_write_string).
func (m *Builder) String(s string) {
	if m.err != nil {
		return
	}
	m.b, m.err = AppendStringArg(m.b, s, orderOf(m.big))
	m.args++
}

// Int appends a signed integer of 8, 16, 32, 64 or 128 bits.
func (m *Builder) Int(v int64, bits int) {
	m.Arg(ArgSpec{Kind: KindSigned, Bits: bits, Uint: uint64(v), UintHi: uint64(v >> 63)})
}

// Uint appends an unsigned integer of 8, 16, 32, 64 or 128 bits.
func (m *Builder) Uint(v uint64, bits int) {
	m.Arg(ArgSpec{Kind: KindUnsigned, Bits: bits, Uint: v})
}

// Bool appends a bool argument.
func (m *Builder) Bool(v bool) { m.Arg(ArgSpec{Kind: KindBool, Bool: v}) }

// Float appends a float of 16, 32, 64 or 128 bits (rounded to the
// nearest value of that width).
func (m *Builder) Float(v float64, bits int) { m.Arg(ArgSpec{Kind: KindFloat, Bits: bits, Float: v}) }

// Raw appends a raw data argument.
func (m *Builder) Raw(p []byte) { m.Arg(ArgSpec{Kind: KindRaw, Data: p}) }

// Bytes appends the payload bytes p unchanged and counts n arguments, for
// arguments encoded elsewhere (with [AppendArg], or [Arg.Raw] of another
// message in the same byte order).
func (m *Builder) Bytes(p []byte, n int) {
	if m.err != nil {
		return
	}
	m.b = append(m.b, p...)
	m.args += n
}

// Finish patches LEN and NOAR and returns the buffer. It fails with
// [ErrLimit] when the message exceeds 65535 bytes or has more than 255
// arguments, or with the first argument error.
func (m *Builder) Finish() ([]byte, error) {
	if m.err != nil {
		return m.b, m.err
	}
	n := len(m.b) - m.start
	if n > MaxMessageLen {
		return m.b, wire.NewValueError("dlt", "LEN", m.start+2, ErrLimit, int64(n), MaxMessageLen)
	}
	putBE16(m.b[m.start+2:], uint16(n))
	if m.noar != 0 {
		if m.args > 255 {
			return m.b, wire.NewValueError("dlt", "NOAR", m.noar, ErrLimit, int64(m.args), 255)
		}
		m.b[m.noar] = uint8(m.args)
	}
	return m.b, nil
}

// AppendMessage appends a complete message with headers h, NOAR nargs and
// the already encoded payload (verbose arguments in h's byte order, or a
// non-verbose message id and data). It fails like [Builder.Finish].
func AppendMessage(dst []byte, h Header, nargs int, payload []byte) ([]byte, error) {
	m := NewBuilder(dst, h)
	m.Bytes(payload, nargs)
	return m.Finish()
}

// ArgSpec describes one verbose argument to encode with [AppendArg].
type ArgSpec struct {
	Kind   Kind
	Bits   int    // 8 (bool), 8-128 (integers), 16-128 (floats); ignored for strings and raw
	Coding Coding // SCOD: ASCII/UTF-8 for strings, hex/bin display for unsigned integers

	VarInfo bool   // write Name (and Unit for numbers): the VARI flag
	Name    string // written without a NUL; the encoder adds it
	Unit    string

	FixedPoint   bool // FIXP, integers only
	Quantization float32
	FixedOffset  int64 // sign-extended to 32, 64 or 128 bits per Bits

	Bool   bool
	Uint   uint64  // integer value (two's complement for signed), low 64 bits
	UintHi uint64  // high 64 bits of a 128-bit integer
	Float  float64 // rounded to 16 or 32 bits when Bits says so
	Data   []byte  // string (without NUL), raw or trace bytes
}

// typeInfo returns the type info word for s, or false when s describes
// something this package does not encode.
func (s *ArgSpec) typeInfo() (uint32, bool) {
	var info uint32
	switch s.Kind {
	case KindBool:
		info = TypeBool
	case KindSigned:
		info = TypeSigned
	case KindUnsigned:
		info = TypeUnsigned
	case KindFloat:
		info = TypeFloat
	case KindString:
		info = TypeString
	case KindRaw:
		info = TypeRaw
	case KindTrace:
		info = TypeTrace
	default:
		return 0, false
	}
	switch s.Kind {
	case KindBool, KindSigned, KindUnsigned, KindFloat:
		bits := s.Bits
		if s.Kind == KindBool && bits == 0 {
			bits = 8
		}
		tyle := uint32(0)
		for t := uint32(1); t <= 5; t++ {
			if 8<<(t-1) == bits {
				tyle = t
			}
		}
		info |= tyle
	}
	if s.VarInfo {
		info |= TypeVarInfo
	}
	if s.FixedPoint {
		info |= TypeFixed
	}
	info |= uint32(s.Coding&7) << typeCodeShift
	if valueSize(s.Kind, info) < 0 || (s.FixedPoint && s.Kind != KindSigned && s.Kind != KindUnsigned) {
		return 0, false
	}
	return info, true
}

// AppendArg appends the argument spec describes in the given byte order.
// It fails with [ErrType] for an invalid kind/size/flag
// combination and [ErrLimit] for a name, unit or value longer than a u16
// length allows; the offset is len(dst). On failure dst is returned
// unchanged.
func AppendArg(dst []byte, spec ArgSpec, order binary.ByteOrder) ([]byte, error) {
	bigEndian := isBig(order)
	info, ok := spec.typeInfo()
	if !ok {
		return dst, errAt("type info", len(dst), ErrType)
	}
	if len(spec.Name) >= 0xFFFF || len(spec.Unit) >= 0xFFFF || len(spec.Data) >= 0xFFFF {
		return dst, errAt("length", len(dst), ErrLimit)
	}
	b := wire.AppendU32(dst, info, bigEndian)
	switch spec.Kind {
	case KindString, KindRaw, KindTrace:
		n := len(spec.Data)
		if spec.Kind != KindRaw {
			n++
		}
		b = appendU16(b, n, bigEndian)
		if spec.VarInfo {
			b = appendU16(b, len(spec.Name)+1, bigEndian)
			b = append(append(b, spec.Name...), 0)
		}
		b = append(b, spec.Data...)
		if spec.Kind != KindRaw {
			b = append(b, 0)
		}
		return b, nil
	}
	if spec.VarInfo {
		b = appendU16(b, len(spec.Name)+1, bigEndian)
		if spec.Kind != KindBool {
			b = appendU16(b, len(spec.Unit)+1, bigEndian)
		}
		b = append(append(b, spec.Name...), 0)
		if spec.Kind != KindBool {
			b = append(append(b, spec.Unit...), 0)
		}
	}
	size := valueSize(spec.Kind, info)
	if spec.FixedPoint {
		b = wire.AppendU32(b, math.Float32bits(spec.Quantization), bigEndian)
		b = appendInt(b, uint64(spec.FixedOffset>>63), uint64(spec.FixedOffset), max(size, 4), bigEndian)
	}
	switch spec.Kind {
	case KindBool:
		v := uint8(0)
		if spec.Bool {
			v = 1
		}
		b = append(b, v)
	case KindSigned, KindUnsigned:
		b = appendInt(b, spec.UintHi, spec.Uint, size, bigEndian)
	case KindFloat:
		switch size {
		case 2:
			b = appendU16(b, int(float64to16(spec.Float)), bigEndian)
		case 4:
			b = wire.AppendU32(b, math.Float32bits(float32(spec.Float)), bigEndian)
		case 8:
			b = wire.AppendU64(b, math.Float64bits(spec.Float), bigEndian)
		default:
			hi, lo := float64to128(spec.Float)
			b = appendInt(b, hi, lo, 16, bigEndian)
		}
	}
	return b, nil
}

// AppendStringArg appends an ASCII string argument exactly as libdlt
// writes one (type info 0x200, u16 length including the NUL, bytes, NUL).
// It fails with [ErrLimit] when s has 65535 bytes or more.
func AppendStringArg(dst []byte, s string, order binary.ByteOrder) ([]byte, error) {
	bigEndian := isBig(order)
	if len(s) >= 0xFFFF {
		return dst, errAt("length", len(dst), ErrLimit)
	}
	dst = wire.AppendU32(dst, TypeString, bigEndian)
	dst = appendU16(dst, len(s)+1, bigEndian)
	return append(append(dst, s...), 0), nil
}

func appendU16(b []byte, v int, big bool) []byte {
	if big {
		return wire.AppendU16BE(b, uint16(v))
	}
	return wire.AppendU16LE(b, uint16(v))
}

// appendInt appends the low size bytes of the 128-bit value hi:lo.
func appendInt(b []byte, hi, lo uint64, size int, big bool) []byte {
	switch size {
	case 1:
		return append(b, uint8(lo))
	case 2:
		return appendU16(b, int(uint16(lo)), big)
	case 4:
		return wire.AppendU32(b, uint32(lo), big)
	case 8:
		return wire.AppendU64(b, lo, big)
	}
	if big {
		return wire.AppendU64BE(wire.AppendU64BE(b, hi), lo)
	}
	return wire.AppendU64LE(wire.AppendU64LE(b, lo), hi)
}

// float64to16 rounds to the nearest IEEE 754 binary16 value (ties to even).
func float64to16(f float64) uint16 {
	bits := math.Float64bits(f)
	sign := uint16(bits>>48) & 0x8000
	switch {
	case math.IsNaN(f):
		return sign | 0x7E00
	case math.IsInf(f, 0):
		return sign | 0x7C00
	}
	a := math.Abs(f)
	if a >= 65520 { // rounds to infinity
		return sign | 0x7C00
	}
	if a < math.Ldexp(1, -14) { // subnormal: units of 2^-24
		return sign | uint16(math.RoundToEven(a*(1<<24)))
	}
	frac, exp := math.Frexp(a) // a = frac * 2^exp, frac in [0.5, 1)
	m := math.RoundToEven(frac * 2048)
	if m == 2048 {
		m, exp = 1024, exp+1
	}
	return sign | uint16(exp+14)<<10 | (uint16(m) - 1024)
}

// float64to128 widens to IEEE 754 binary128 exactly.
func float64to128(f float64) (hi, lo uint64) {
	bits := math.Float64bits(f)
	sign := bits >> 63 << 63
	exp := int(bits >> 52 & 0x7FF)
	frac := bits & (1<<52 - 1)
	switch {
	case exp == 0x7FF:
		return sign | 0x7FFF<<48 | frac>>4, frac << 60
	case exp == 0 && frac == 0:
		return sign, 0
	case exp == 0: // subnormal: normalise
		for frac&(1<<52) == 0 {
			frac <<= 1
			exp--
		}
		exp++
		frac &= 1<<52 - 1
	}
	e := uint64(exp - 1023 + 16383)
	return sign | e<<48 | frac>>4, frac << 60
}
