package pduwire

import "github.com/perfwire/perfwire/internal/wire"

// MaxCreds is the most credentials one CREDS PDU may carry.
const MaxCreds = 1024

// CredVersion is the only credential type, CVERSION.
const CredVersion = 1

// Credential is a credential word: bits 31–24 the type and, for
// CVERSION, bits 23–16 the protocol version and 15–0 the PDU_FLAG_* bits.
type Credential uint32

// NewVersionCred returns a CVERSION credential.
func NewVersionCred(version uint8, flags uint16) Credential {
	return Credential(CredVersion<<24 | uint32(version)<<16 | uint32(flags))
}

// Kind returns the credential type (CredVersion for real peers).
func (c Credential) Kind() uint8 { return uint8(c >> 24) }

// Version returns the protocol version of a CVERSION credential.
func (c Credential) Version() uint8 { return uint8(c >> 16) }

// Flags returns the PDU_FLAG_* bits of a CVERSION credential.
func (c Credential) Flags() uint16 { return uint16(c) }

// CredsPDU is a CREDS PDU (0x700c, docs/pcp-pdu.md §4.2).
type CredsPDU struct {
	Creds []Credential
}

// Type returns TypeCreds.
func (*CredsPDU) Type() Type { return TypeCreds }

// Append appends the PDU (16 + 4·n bytes).
func (m *CredsPDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypeCreds, from)
	b = wire.AppendU32BE(b, uint32(len(m.Creds)))
	for _, c := range m.Creds {
		b = wire.AppendU32BE(b, uint32(c))
	}
	return finish(b, start)
}

// UnmarshalBinary decodes a CREDS PDU. It checks len ≥ 20 before reading
// numcreds ([ErrTruncated]), requires 1 ≤ numcreds ≤ [MaxCreds]
// ([ErrCount]) and len == 16 + 4·numcreds ([ErrLength]).
func (m *CredsPDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypeCreds, 20); err != nil {
		return err
	}
	n := int32(be32(pdu, 12))
	// One failure path: the field, offset and kind by rule.
	bad := failure{"CREDS.numcreds", 12, ErrCount}
	switch {
	case n < 1 || n > MaxCreds:
	case uint64(len(pdu)) != 16+4*uint64(n):
		bad = failure{"CREDS.len", 0, ErrLength}
	default:
		m.Creds = m.Creds[:0]
		for i := range int(n) {
			m.Creds = append(m.Creds, Credential(be32(pdu, 16+4*i)))
		}
		return nil
	}
	return fail(bad.field, bad.off, bad.kind)
}
