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

// AttrPDU is an ATTR (alias AUTH) PDU (0x7011, docs/pcp-pdu.md §4.14): an attribute
// code (0 for SASL payloads) and an unpadded value. Its length is
// 16 + len(Value), so the next PDU in a stream may start at any offset.
// Checking the value's character set (container and user names) is the
// caller's job before the value is used.
type AttrPDU struct {
	Attr  int32
	Value []byte
}

// Type returns TypeAttr.
func (*AttrPDU) Type() Type { return TypeAttr }

// Append appends the PDU (16 + len(Value) bytes, no padding).
func (m *AttrPDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypeAttr, from)
	b = wire.AppendU32BE(b, uint32(m.Attr))
	return finish(append(b, m.Value...), start)
}

// UnmarshalBinary decodes an ATTR PDU: len ≥ 16 ([ErrTruncated]) and a
// value below 4096 bytes ([ErrLimit]).
func (m *AttrPDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypeAttr, 16); err != nil {
		return err
	}
	if len(pdu)-16 > MaxAttrValue {
		return fail("ATTR.len", 0, ErrLimit)
	}
	m.Attr = int32(be32(pdu, 12))
	m.Value = pdu[16:len(pdu):len(pdu)]
	return nil
}

// CheckAttrValue applies libpcp's character rules to the attribute
// values that end up in names, label JSON or numeric ids (docs/pcp-pdu.md §4.14):
// CONTAINER is [A-Za-z0-9._-]+; USERNAME the same set, not starting with
// '-'; USERID, GROUPID and PROCESSID digits only. Other attributes are
// not checked. A violation is [ErrField]. pmcd → PMDA values carry a
// trailing NUL, which is ignored here.
func CheckAttrValue(attr int32, v []byte) error {
	if n := len(v); n > 0 && v[n-1] == 0 {
		v = v[:n-1]
	}
	var ok bool
	switch attr {
	case AttrContainer:
		ok = len(v) > 0 && allBytes(v, nameByte)
	case AttrUsername:
		ok = len(v) > 0 && v[0] != '-' && allBytes(v, nameByte)
	case AttrUserID, AttrGroupID, AttrProcessID:
		ok = len(v) > 0 && allBytes(v, func(c byte) bool { return c >= '0' && c <= '9' })
	default:
		return nil
	}
	if !ok {
		return fail("ATTR.value", 16, ErrField)
	}
	return nil
}

func nameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
}

func allBytes(v []byte, ok func(byte) bool) bool {
	for _, c := range v {
		if !ok(c) {
			return false
		}
	}
	return true
}
