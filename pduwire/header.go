package pduwire

import (
	"encoding/binary"
	"github.com/perfwire/perfwire/internal/wire"
)

// HeaderLen is the size of the PDU header, the minimum PDU length.
const HeaderLen = 12

// Header is the 12-byte prefix of every PDU.
type Header struct {
	Len  uint32 // total PDU length in bytes, header included
	Type Type   // PDU type code
	From int32  // sender tag: a context, a pid, or 0 (docs/pcp-pdu.md §2.1)
}

// ConsumeHeader decodes the header at the start of b and returns it with
// the number of bytes used (always [HeaderLen] on success). It fails with
// [ErrTruncated] if b is shorter than 12 bytes, [ErrHeaderLen] if len is
// below 12 and [ErrType] for a negative type. It does not check len
// against a limit or against len(b): framers do that.
func ConsumeHeader(b []byte) (Header, int, error) {
	if len(b) < HeaderLen {
		return Header{}, 0, fail("header", len(b), ErrTruncated)
	}
	h := Header{
		Len:  binary.BigEndian.Uint32(b),
		Type: Type(binary.BigEndian.Uint32(b[4:])),
		From: int32(binary.BigEndian.Uint32(b[8:])),
	}
	if h.Len < HeaderLen {
		return h, 0, fail("header.len", 0, ErrHeaderLen)
	}
	if h.Type < 0 {
		return h, 0, fail("header.type", 4, ErrType)
	}
	return h, HeaderLen, nil
}

// AppendHeader appends h as 12 big-endian bytes.
func AppendHeader(b []byte, h Header) []byte {
	b = wire.AppendU32BE(b, h.Len)
	b = wire.AppendU32BE(b, uint32(h.Type))
	return wire.AppendU32BE(b, uint32(h.From))
}

// begin appends a header with a zero len to be back-patched by finish,
// and returns where the PDU starts.
func begin(b []byte, t Type, from int32) ([]byte, int) {
	return AppendHeader(b, Header{Type: t, From: from}), len(b)
}

// finish writes the PDU's final length into the header reserved by begin.
func finish(b []byte, start int) []byte {
	wire.PutU32BE(b, start, uint32(len(b)-start))
	return b
}

// open checks the header of a whole PDU handed to a body decoder: the
// type must be one of want and len must equal len(pdu). The returned
// cursor is positioned after the header.
func open(pdu []byte, name string, want ...Type) (Header, wire.Cursor, error) {
	h, _, err := ConsumeHeader(pdu)
	if err != nil {
		return h, wire.Cursor{}, err
	}
	if uint64(h.Len) != uint64(len(pdu)) {
		return h, wire.Cursor{}, fail(name+".len", 0, ErrHeaderLen)
	}
	ok := false
	for _, t := range want {
		ok = ok || h.Type == t
	}
	if !ok {
		return h, wire.Cursor{}, fail(name+".type", 4, ErrType)
	}
	c := wire.NewCursor(pdu)
	c.Skip(HeaderLen)
	return h, c, nil
}

// be32 reads the big-endian word at off; callers have checked bounds.
func be32(b []byte, off int) uint32 { return binary.BigEndian.Uint32(b[off:]) }
