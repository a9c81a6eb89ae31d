package pduwire

import (
	"encoding/binary"
	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pcp"
)

// FetchPDU is a FETCH (0x7003) or HIGHRES_FETCH (0x7014) PDU (docs/pcp-pdu.md §4.4).
// The legacy timestamp words are sent as zeros and ignored on receipt.
type FetchPDU struct {
	HighRes bool
	Ctx     int32
	PMIDs   []pcp.ID
}

// Type returns TypeHighResFetch or TypeFetch.
func (m *FetchPDU) Type() Type {
	if m.HighRes {
		return TypeHighResFetch
	}
	return TypeFetch
}

// Append appends the PDU (28 + 4·numpmid bytes).
func (m *FetchPDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, m.Type(), from)
	b = wire.AppendU32BE(b, uint32(m.Ctx))
	b = wire.AppendZeros(b, 8)
	b = appendIDs(b, m.PMIDs)
	return finish(b, start)
}

// UnmarshalBinary decodes a FETCH or HIGHRES_FETCH PDU: len ≥ 32
// ([ErrTruncated]), numpmid ≥ 1 ([ErrCount]), len == 28 + 4·numpmid
// ([ErrLength]).
func (m *FetchPDU) UnmarshalBinary(pdu []byte) error {
	err := head(pdu, TypeFetch, 32)
	if err != nil {
		return err
	}
	m.HighRes = Type(be32(pdu, 4)) == TypeHighResFetch
	m.Ctx = int32(be32(pdu, 12))
	m.PMIDs, err = decodeIDs(pdu, 24, "FETCH", m.PMIDs[:0])
	return err
}

// appendIDs appends a count word and the identifiers.
func appendIDs(b []byte, ids []pcp.ID) []byte {
	b = wire.AppendU32BE(b, uint32(len(ids)))
	for _, id := range ids {
		b = wire.AppendU32BE(b, uint32(id))
	}
	return b
}

// decodeIDs reads the count at off (≥ 1, [ErrCount]) and the identifiers
// that must fill the PDU exactly ([ErrLength]).
func decodeIDs(pdu []byte, off int, name string, dst []pcp.ID) ([]pcp.ID, error) {
	n := int32(be32(pdu, off))
	// One failure path: the field's suffix, offset and kind by rule.
	field, at, kind := ".count", off, ErrCount
	switch {
	case n < 1 || uint64(n) > uint64(len(pdu)-off-4)/4:
	case uint64(len(pdu)) != uint64(off)+4+4*uint64(n):
		field, at, kind = ".len", 0, ErrLength
	default:
		// The identifiers fill the rest of the PDU: walked by
		// re-slicing, with no bounds check or call per word.
		for ids := pdu[off+4:]; len(ids) >= 4; ids = ids[4:] {
			dst = append(dst, pcp.ID(binary.BigEndian.Uint32(ids)))
		}
		return dst, nil
	}
	return dst, fail(name+field, at, kind)
}

// PMNSIDsPDU is a PMNS_IDS PDU (0x700d, docs/pcp-pdu.md §4.13): a status word and a
// list of pmIDs (PM_ID_NULL for names that did not resolve).
type PMNSIDsPDU struct {
	Status int32
	PMIDs  []pcp.ID
}

// Type returns TypePMNSIDs.
func (*PMNSIDsPDU) Type() Type { return TypePMNSIDs }

// Append appends the PDU (20 + 4·n bytes).
func (m *PMNSIDsPDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypePMNSIDs, from)
	b = wire.AppendU32BE(b, uint32(m.Status))
	b = appendIDs(b, m.PMIDs)
	return finish(b, start)
}

// UnmarshalBinary decodes a PMNS_IDS PDU: len ≥ 24 ([ErrTruncated]),
// numids ≥ 1 and within the PDU ([ErrCount]), len == 20 + 4·numids
// ([ErrLength]).
func (m *PMNSIDsPDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypePMNSIDs, 24); err != nil {
		return err
	}
	m.Status = int32(be32(pdu, 12))
	var err error
	m.PMIDs, err = decodeIDs(pdu, 16, "PMNS_IDS", m.PMIDs[:0])
	return err
}

// DescIDsPDU is a DESC_IDS PDU (0x7016, docs/pcp-pdu.md §4.10): the PMNS_IDS layout
// with −1 in the status word.
type DescIDsPDU struct {
	PMIDs []pcp.ID
}

// Type returns TypeDescIDs.
func (*DescIDsPDU) Type() Type { return TypeDescIDs }

// Append appends the PDU (20 + 4·n bytes).
func (m *DescIDsPDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypeDescIDs, from)
	b = wire.AppendU32BE(b, 0xffffffff)
	b = appendIDs(b, m.PMIDs)
	return finish(b, start)
}

// UnmarshalBinary decodes a DESC_IDS PDU as [PMNSIDsPDU.UnmarshalBinary]
// does and also requires the status word to be −1 ([ErrField]).
func (m *DescIDsPDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypeDescIDs, 24); err != nil {
		return err
	}
	if int32(be32(pdu, 12)) != -1 {
		return fail("DESC_IDS.sts", 12, ErrField)
	}
	var err error
	m.PMIDs, err = decodeIDs(pdu, 16, "DESC_IDS", m.PMIDs[:0])
	return err
}
