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
// [ErrTruncated] if b is shorter than 12 bytes, kind "pdu_length" if len is
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
		return h, 0, fail("header.len", 0, errHeaderLen)
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

// exactly, ORed into head's size, asks for a PDU of exactly that size.
const exactly = 1 << 30

// head checks the header of a whole PDU handed to the body decoder of
// type t, whose name (t's) prefixes the failing field: the header's own
// rules (ConsumeHeader), then len equal to len(pdu) (kind "pdu_length"),
// then the type t, or its high-resolution or traverse twin for
// FETCH, RESULT and PMNS_CHILD ([ErrType]), and last the size: at least
// size bytes ([ErrTruncated] at len(pdu)), or exactly size&^exactly
// ([ErrLength]). One call instead of two checks, each returning its
// error, in every decoder: in WebAssembly every call is code (module
// size; see wasm/size).
// The compiler does not see head's size check: in WebAssembly the
// decoders' fixed reads are be32 calls, which check their own bounds;
// LOG_STATUS_V2, which copies fixed spans, indexes its last byte once.
//
//go:noinline
func head(pdu []byte, t Type, size int) error {
	h, _, err := ConsumeHeader(pdu)
	if err != nil {
		return err
	}
	var twin Type
	switch t {
	case TypeFetch:
		twin = TypeHighResFetch
	case TypeResult:
		twin = TypeHighResResult
	case TypePMNSChild:
		twin = TypePMNSTraverse
	}
	// One failure path: the field's suffix, offset and kind by rule.
	field, off, kind := ".len", 0, ErrLength
	switch {
	case uint64(h.Len) != uint64(len(pdu)):
		kind = errHeaderLen
	case h.Type != t && (twin == 0 || h.Type != twin):
		field, off, kind = ".type", 4, ErrType
	case size&exactly != 0:
		if len(pdu) == size&^exactly {
			return nil
		}
	case len(pdu) < size:
		field, off, kind = "", len(pdu), ErrTruncated
	default:
		return nil
	}
	return fail(t.String()+field, off, kind)
}
