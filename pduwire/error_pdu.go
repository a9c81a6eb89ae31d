package pduwire

import "github.com/perfwire/perfwire/internal/wire"

// ErrorPDU is an ERROR PDU (0x7000): a status reply, a store ack, a
// state-change notice (positive Code) or, with Extended set, the 20-byte
// handshake form carrying a features word in Datum (docs/pcp-pdu.md §4.1, §5.1).
type ErrorPDU struct {
	Code     int32 // 0, a negative PM_ERR_* or −errno, or positive state bits
	Extended bool  // the 20-byte form
	Datum    uint32
}

// Type returns TypeError.
func (*ErrorPDU) Type() Type { return TypeError }

// Append appends the 16-byte form, or the 20-byte form when Extended.
func (m *ErrorPDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypeError, from)
	b = wire.AppendU32BE(b, uint32(m.Code))
	if m.Extended {
		b = wire.AppendU32BE(b, m.Datum)
	}
	return finish(b, start)
}

// UnmarshalBinary decodes an ERROR PDU; len must be 16 or 20
// ([ErrLength] otherwise).
func (m *ErrorPDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypeError, 0); err != nil {
		return err
	}
	if len(pdu) != 16 && len(pdu) != 20 {
		return fail("ERROR.len", 0, ErrLength)
	}
	*m = ErrorPDU{Code: int32(be32(pdu, 12)), Extended: len(pdu) == 20}
	if len(pdu) == 20 {
		m.Datum = be32(pdu, 16)
	}
	return nil
}
