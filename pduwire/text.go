package pduwire

import "github.com/perfwire/perfwire/internal/wire"

// Help-text request flags (PM_TEXT_*).
const (
	TextOneline = 1
	TextHelp    = 2
	TextPMID    = 4
	TextInDom   = 8
)

// TextReqPDU is a TEXT_REQ PDU (0x7008): help text for a pmID or pmInDom.
type TextReqPDU struct {
	Ident uint32 // a pcp.ID or pcp.InDom, as Kind says
	Kind  int32  // TextOneline or TextHelp, ORed with TextPMID or TextInDom
}

// Type returns TypeTextReq.
func (*TextReqPDU) Type() Type { return TypeTextReq }

// Append appends the 20-byte PDU.
func (m *TextReqPDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypeTextReq, from)
	b = wire.AppendU32BE(b, m.Ident)
	return finish(wire.AppendU32BE(b, uint32(m.Kind)), start)
}

// UnmarshalBinary decodes a TEXT_REQ PDU; len must be 20 ([ErrLength]).
func (m *TextReqPDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypeTextReq, exactly|20); err != nil {
		return err
	}
	m.Ident, m.Kind = be32(pdu, 12), int32(be32(pdu, 16))
	return nil
}

// TextPDU is a TEXT PDU (0x7009). Ident is opaque: PMDAs write it in their
// host byte order and pmcd relays it unchanged (docs/pcp-pdu.md §4.12), so it need
// not match the request.
type TextPDU struct {
	Ident uint32
	Text  []byte // no NUL
}

// Type returns TypeText.
func (*TextPDU) Type() Type { return TypeText }

// Append appends the PDU (20 + pad4(buflen) bytes).
func (m *TextPDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypeText, from)
	b = wire.AppendU32BE(b, m.Ident)
	return finish(appendString(b, m.Text), start)
}

// UnmarshalBinary decodes a TEXT PDU: len ≥ 20 ([ErrTruncated]),
// 0 ≤ buflen and len ≥ 20 + pad4(buflen) ([ErrCount]). Bytes after the
// padded text are tolerated, as libpcp does.
func (m *TextPDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypeText, 20); err != nil {
		return err
	}
	// libpcp 6.0.3 needs only the text itself inside len, not its final
	// pad (found by the differential fuzzer, fuzz/RESULTS.md F2).
	n := int32(be32(pdu, 16))
	if n < 0 || uint64(n) > uint64(len(pdu)-20) {
		return fail("TEXT.buflen", 16, ErrCount)
	}
	m.Ident = be32(pdu, 12)
	m.Text = pdu[20 : 20+n : 20+n]
	return nil
}
