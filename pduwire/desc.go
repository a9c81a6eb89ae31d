package pduwire

import (
	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pcp"
)

// Desc is a metric descriptor (pmDesc), 20 bytes on the wire. It is the
// pcp package's type, so descriptors move between packages unconverted.
type Desc = pcp.Desc

func appendDesc(b []byte, d Desc) []byte {
	b = wire.AppendU32BE(b, uint32(d.ID))
	b = wire.AppendU32BE(b, uint32(d.Type))
	b = wire.AppendU32BE(b, uint32(d.InDom))
	b = wire.AppendU32BE(b, uint32(d.Sem))
	return wire.AppendU32BE(b, uint32(d.Units))
}

func readDesc(b []byte, off int) Desc {
	return Desc{
		ID:    pcp.ID(be32(b, off)),
		Type:  pcp.Type(int32(be32(b, off+4))),
		InDom: pcp.InDom(be32(b, off+8)),
		Sem:   pcp.Sem(int32(be32(b, off+12))),
		Units: pcp.Units(be32(b, off+16)),
	}
}

// DescReqPDU is a DESC_REQ PDU (0x7004): the descriptor of one pmID.
type DescReqPDU struct {
	PMID pcp.ID
}

// Type returns TypeDescReq.
func (*DescReqPDU) Type() Type { return TypeDescReq }

// Append appends the 16-byte PDU.
func (m *DescReqPDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypeDescReq, from)
	return finish(wire.AppendU32BE(b, uint32(m.PMID)), start)
}

// UnmarshalBinary decodes a DESC_REQ PDU; len must be 16 ([ErrLength]).
func (m *DescReqPDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypeDescReq, exactly|16); err != nil {
		return err
	}
	m.PMID = pcp.ID(be32(pdu, 12))
	return nil
}

// DescPDU is a DESC PDU (0x7005): one descriptor.
type DescPDU struct {
	Desc Desc
}

// Type returns TypeDesc.
func (*DescPDU) Type() Type { return TypeDesc }

// Append appends the 32-byte PDU.
func (m *DescPDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypeDesc, from)
	return finish(appendDesc(b, m.Desc), start)
}

// UnmarshalBinary decodes a DESC PDU; len must be 32 ([ErrLength]).
func (m *DescPDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypeDesc, exactly|32); err != nil {
		return err
	}
	m.Desc = readDesc(pdu, 12)
	return nil
}

// DescsPDU is a DESCS PDU (0x7017): descriptors in request order; a failed
// pmID yields an entry whose PMID is pcp.IDNull.
type DescsPDU struct {
	Descs []Desc
}

// Type returns TypeDescs.
func (*DescsPDU) Type() Type { return TypeDescs }

// Append appends the PDU (16 + 20·n bytes).
func (m *DescsPDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypeDescs, from)
	b = wire.AppendU32BE(b, uint32(len(m.Descs)))
	for _, d := range m.Descs {
		b = appendDesc(b, d)
	}
	return finish(b, start)
}

// UnmarshalBinary decodes a DESCS PDU: len ≥ 36 ([ErrTruncated]),
// 1 ≤ numdescs within the PDU ([ErrCount]), len == 16 + 20·numdescs
// ([ErrLength]).
func (m *DescsPDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypeDescs, 36); err != nil {
		return err
	}
	n := int32(be32(pdu, 12))
	// One failure path: the field, offset and kind by rule.
	bad := failure{"DESCS.numdescs", 12, ErrCount}
	switch {
	case n < 1 || uint64(n) > uint64(len(pdu)-16)/20:
	case uint64(len(pdu)) != 16+20*uint64(n):
		bad = failure{"DESCS.len", 0, ErrLength}
	default:
		m.Descs = m.Descs[:0]
		for i := range int(n) {
			m.Descs = append(m.Descs, readDesc(pdu, 16+20*i))
		}
		return nil
	}
	return fail(bad.field, bad.off, bad.kind)
}
