package pduwire

import "github.com/perfwire/perfwire/internal/wire"

// Builder assembles one PDU of any type in a caller's buffer, for PDUs
// this package has no message type for (or hand-made test input), with
// cryptobyte's verbs: NewBuilder reserves the header, AddUint32,
// AddUint64, AddBytes and AddString append body fields, and Finish writes
// the final length into the reserved len word, because PCP's len counts
// the header:
//
//	b := pduwire.NewBuilder(buf, pduwire.TypePMNSTraverse, 0)
//	b.AddUint32(0)
//	b.AddString("sample.colour")
//	buf, err := b.Finish()
//
// Its error is sticky: the first failure refuses that field and every
// later one, and it is the error Finish reports. A Builder from
// [NewFixedBuilder] never grows its buffer, so it can work in a
// preallocated (e.g. wasm scratch) buffer.
type Builder struct {
	buf   []byte
	start int
	fixed bool
	err   error
}

// NewBuilder starts a PDU of type t from sender from, appended to buf.
func NewBuilder(buf []byte, t Type, from int32) Builder {
	b := Builder{buf: buf, start: len(buf)}
	b.header(t, from)
	return b
}

// NewFixedBuilder is NewBuilder limited to cap(buf): appending past it
// makes Finish fail with [ErrLimit] instead of reallocating.
func NewFixedBuilder(buf []byte, t Type, from int32) Builder {
	b := Builder{buf: buf, start: len(buf), fixed: true}
	b.header(t, from)
	return b
}

func (b *Builder) header(t Type, from int32) {
	if b.room(HeaderLen) {
		b.buf, _ = begin(b.buf, t, from)
	}
}

// room reports whether n more bytes may be appended.
func (b *Builder) room(n int) bool {
	if b.err != nil {
		return false
	}
	if b.fixed && cap(b.buf)-len(b.buf) < n {
		b.err = wire.NewValueError("pduwire", "Builder", len(b.buf)-b.start, ErrLimit,
			int64(len(b.buf)-b.start+n), int64(cap(b.buf)-b.start))
		return false
	}
	return true
}

// AddUint32 appends a big-endian word.
func (b *Builder) AddUint32(v uint32) {
	if b.room(4) {
		b.buf = wire.AppendU32BE(b.buf, v)
	}
}

// AddUint64 appends a big-endian 64-bit value.
func (b *Builder) AddUint64(v uint64) {
	if b.room(8) {
		b.buf = wire.AppendU64BE(b.buf, v)
	}
}

// AddBytes appends p unpadded (ATTR values, LABEL JSON).
func (b *Builder) AddBytes(p []byte) {
	if b.room(len(p)) {
		b.buf = append(b.buf, p...)
	}
}

// AddString appends a byte-count word, s, and zero padding to 4 bytes,
// the encoding of names and help text.
func (b *Builder) AddString(s string) {
	if b.room(4 + wire.Pad4(len(s))) {
		b.buf = wire.AppendU32BE(b.buf, uint32(len(s)))
		start := len(b.buf)
		b.buf = append(b.buf, s...)
		b.buf = wire.AppendPad4(b.buf, start)
	}
}

// Finish writes the PDU length into the header and returns the buffer
// with the PDU appended. It fails with the builder's first error: a
// [*ParseError] of kind [ErrLimit] when a fixed builder ran out of room
// (at the offset in the PDU of the field refused; the value is the PDU
// size that field needed, the limit the room the buffer had), or when the
// PDU would exceed [MaxPDULen]. On failure the returned buffer is the
// original one.
func (b *Builder) Finish() ([]byte, error) {
	if b.err == nil && len(b.buf)-b.start > MaxPDULen {
		b.err = wire.NewValueError("pduwire", "Builder", 0, ErrLimit, int64(len(b.buf)-b.start), MaxPDULen)
	}
	if b.err != nil {
		return b.buf[:b.start], b.err
	}
	return finish(b.buf, b.start), nil
}
