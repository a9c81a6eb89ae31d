package pduwire

import "github.com/perfwire/perfwire/internal/wire"

// Builder assembles one PDU of any type in a caller's buffer, for PDUs
// this package has no message type for (or hand-made test input). It
// reserves the header, appends body fields, and Finish writes the final
// length into the reserved len word, because PCP's len counts the header.
// A Builder from [NewFixedBuilder] never grows its buffer, so it can
// work in a preallocated (e.g. wasm scratch) buffer.
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
		b.err = fail("Builder", len(b.buf)-b.start, ErrLimit)
		return false
	}
	return true
}

// U32 appends a big-endian word.
func (b *Builder) U32(v uint32) {
	if b.room(4) {
		b.buf = wire.AppendU32BE(b.buf, v)
	}
}

// U64 appends a big-endian 64-bit value.
func (b *Builder) U64(v uint64) {
	if b.room(8) {
		b.buf = wire.AppendU64BE(b.buf, v)
	}
}

// Bytes appends p unpadded (ATTR values, LABEL JSON).
func (b *Builder) Bytes(p []byte) {
	if b.room(len(p)) {
		b.buf = append(b.buf, p...)
	}
}

// String appends a byte-count word, p, and zero padding to 4 bytes, the
// encoding of names and help text.
func (b *Builder) String(p []byte) {
	if b.room(4 + wire.Pad4(len(p))) {
		b.buf = appendString(b.buf, p)
	}
}

// Finish writes the PDU length into the header and returns the buffer
// with the PDU appended. It fails with [ErrLimit] when a fixed builder ran
// out of room or the PDU would exceed [MaxPDULen].
func (b *Builder) Finish() ([]byte, error) {
	if b.err != nil {
		return b.buf[:b.start], b.err
	}
	if len(b.buf)-b.start > MaxPDULen {
		return b.buf[:b.start], fail("Builder", 0, ErrLimit)
	}
	return finish(b.buf, b.start), nil
}
