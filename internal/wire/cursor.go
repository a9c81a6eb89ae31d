// Package wire holds the bounds-checked byte cursor, the append helpers and
// the error type shared by perfwire's decoders and encoders.
//
// Every read checks the bytes that remain before it touches them and
// reports failure as a false result, so hot loops never allocate; callers
// turn a false into a typed [Error] once, at their package boundary, with
// the offset where decoding stopped. Lengths taken from the wire are
// compared as uint64 so attacker-chosen 32-bit values cannot overflow.
package wire

import "encoding/binary"

// Cursor reads a byte slice front to back. The zero value is an empty
// cursor. A Cursor is a small value: copying it snapshots the position.
// Views it returns alias the underlying slice.
type Cursor struct {
	buf []byte
	off int
}

// NewCursor returns a cursor at the start of b.
func NewCursor(b []byte) Cursor { return Cursor{buf: b} }

// Offset is the number of bytes consumed so far.
func (c *Cursor) Offset() int { return c.off }

// Len is the number of bytes that remain.
func (c *Cursor) Len() int { return len(c.buf) - c.off }

// Empty reports whether every byte has been consumed.
func (c *Cursor) Empty() bool { return c.off == len(c.buf) }

// Rest returns the unread bytes without consuming them.
func (c *Cursor) Rest() []byte { return c.buf[c.off:] }

// Has reports whether at least n more bytes remain. n is unsigned and
// 64-bit so that any count read from the wire can be tested directly.
func (c *Cursor) Has(n uint64) bool { return n <= uint64(len(c.buf)-c.off) }

// Seek moves to absolute offset off, which must lie within the buffer.
func (c *Cursor) Seek(off int) bool {
	if off < 0 || off > len(c.buf) {
		return false
	}
	c.off = off
	return true
}

// Skip consumes n bytes.
func (c *Cursor) Skip(n uint64) bool {
	if !c.Has(n) {
		return false
	}
	c.off += int(n)
	return true
}

// Bytes consumes n bytes and returns them as a view into the buffer,
// capacity-trimmed so that appending to it cannot overwrite what follows.
func (c *Cursor) Bytes(n uint64) ([]byte, bool) {
	if !c.Has(n) {
		return nil, false
	}
	end := c.off + int(n)
	v := c.buf[c.off:end:end]
	c.off = end
	return v, true
}

// U8 consumes one byte.
func (c *Cursor) U8() (uint8, bool) {
	if c.off >= len(c.buf) {
		return 0, false
	}
	v := c.buf[c.off]
	c.off++
	return v, true
}

// U16BE consumes a big-endian 16-bit value.
func (c *Cursor) U16BE() (uint16, bool) {
	if !c.Has(2) {
		return 0, false
	}
	v := binary.BigEndian.Uint16(c.buf[c.off:])
	c.off += 2
	return v, true
}

// U16LE consumes a little-endian 16-bit value.
func (c *Cursor) U16LE() (uint16, bool) {
	if !c.Has(2) {
		return 0, false
	}
	v := binary.LittleEndian.Uint16(c.buf[c.off:])
	c.off += 2
	return v, true
}

// U32BE consumes a big-endian 32-bit value.
func (c *Cursor) U32BE() (uint32, bool) {
	if !c.Has(4) {
		return 0, false
	}
	v := binary.BigEndian.Uint32(c.buf[c.off:])
	c.off += 4
	return v, true
}

// U32LE consumes a little-endian 32-bit value.
func (c *Cursor) U32LE() (uint32, bool) {
	if !c.Has(4) {
		return 0, false
	}
	v := binary.LittleEndian.Uint32(c.buf[c.off:])
	c.off += 4
	return v, true
}

// U64BE consumes a big-endian 64-bit value.
func (c *Cursor) U64BE() (uint64, bool) {
	if !c.Has(8) {
		return 0, false
	}
	v := binary.BigEndian.Uint64(c.buf[c.off:])
	c.off += 8
	return v, true
}

// U64LE consumes a little-endian 64-bit value.
func (c *Cursor) U64LE() (uint64, bool) {
	if !c.Has(8) {
		return 0, false
	}
	v := binary.LittleEndian.Uint64(c.buf[c.off:])
	c.off += 8
	return v, true
}

// U16 consumes a 16-bit value in the given byte order; bigEndian selects
// the order at run time for formats that declare it per file or message.
func (c *Cursor) U16(bigEndian bool) (uint16, bool) {
	if bigEndian {
		return c.U16BE()
	}
	return c.U16LE()
}

// U32 consumes a 32-bit value in the given byte order.
func (c *Cursor) U32(bigEndian bool) (uint32, bool) {
	if bigEndian {
		return c.U32BE()
	}
	return c.U32LE()
}

// U64 consumes a 64-bit value in the given byte order.
func (c *Cursor) U64(bigEndian bool) (uint64, bool) {
	if bigEndian {
		return c.U64BE()
	}
	return c.U64LE()
}
