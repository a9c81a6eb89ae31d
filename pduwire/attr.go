package pduwire

import "github.com/perfwire/perfwire/internal/wire"

// MaxAttrValue is the ATTR value ceiling: values must be shorter than
// 4096 bytes, so len ≤ 4111.
const MaxAttrValue = 4095

// Client attribute codes (PCP_ATTR_*) carried by ATTR PDUs.
const (
	AttrProtocol  = 1
	AttrSecure    = 2
	AttrCompress  = 3
	AttrUserAuth  = 4
	AttrUsername  = 5
	AttrAuthname  = 6
	AttrPassword  = 7
	AttrMethod    = 8
	AttrRealm     = 9
	AttrUnixSock  = 10
	AttrUserID    = 11
	AttrGroupID   = 12
	AttrLocal     = 13
	AttrProcessID = 14
	AttrContainer = 15
	AttrExclusive = 16
)

// Attr is an ATTR (alias AUTH) PDU (0x7011, spec §4.14): an attribute
// code (0 for SASL payloads) and an unpadded value. Its length is
// 16 + len(Value), so the next PDU in a stream may start at any offset.
// Checking the value's character set (container and user names) is the
// caller's job before the value is used.
type Attr struct {
	Attr  int32
	Value []byte
}

// Type returns TypeAttr.
func (*Attr) Type() Type { return TypeAttr }

// Append appends the PDU (16 + len(Value) bytes, no padding).
func (m *Attr) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypeAttr, from)
	b = wire.AppendU32BE(b, uint32(m.Attr))
	return finish(append(b, m.Value...), start)
}

// UnmarshalBinary decodes an ATTR PDU: len ≥ 16 ([ErrTruncated]) and a
// value below 4096 bytes ([ErrLimit]).
func (m *Attr) UnmarshalBinary(pdu []byte) error {
	if _, _, err := open(pdu, "ATTR", TypeAttr); err != nil {
		return err
	}
	if err := atLeast(pdu, "ATTR", 16); err != nil {
		return err
	}
	if len(pdu)-16 > MaxAttrValue {
		return fail("ATTR.len", 0, ErrLimit)
	}
	m.Attr = int32(be32(pdu, 12))
	m.Value = pdu[16:len(pdu):len(pdu)]
	return nil
}
