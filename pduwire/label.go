package pduwire

import (
	"encoding/binary"
	"github.com/perfwire/perfwire/internal/wire"
)

// Label request types (PM_LABEL_*).
const (
	LabelContext   = 0x01
	LabelDomain    = 0x02
	LabelInDom     = 0x04
	LabelCluster   = 0x08
	LabelItem      = 0x10
	LabelInstances = 0x20
)

// Label set limits (docs/pcp-pdu.md §2.5).
const (
	MaxLabels  = 254   // nlabels < 255
	MaxJSONLen = 65534 // jsonlen < 65535
)

// LabelReqPDU is a LABEL_REQ PDU (0x7012): the labels at one level.
type LabelReqPDU struct {
	Ident uint32 // PM_ID_NULL, a domain, a pmInDom or a pmID, per Kind
	Kind  int32  // one of the Label* constants
}

// Type returns TypeLabelReq.
func (*LabelReqPDU) Type() Type { return TypeLabelReq }

// Append appends the 20-byte PDU.
func (m *LabelReqPDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypeLabelReq, from)
	b = wire.AppendU32BE(b, m.Ident)
	return finish(wire.AppendU32BE(b, uint32(m.Kind)), start)
}

// UnmarshalBinary decodes a LABEL_REQ PDU; len must be 20 ([ErrLength]).
func (m *LabelReqPDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypeLabelReq, exactly|20); err != nil {
		return err
	}
	m.Ident, m.Kind = be32(pdu, 12), int32(be32(pdu, 16))
	return nil
}

// LabelPDU is a LABEL PDU (0x7013, docs/pcp-pdu.md §4.15): label sets, each a JSON
// object plus an index of its labels. The JSON texts follow all set
// headers, back to back and unpadded, so len is often not a multiple of 4.
type LabelPDU struct {
	Ident uint32 // echo of the request
	Kind  int32  // echo of the request
	Sets  []LabelSet
}

// LabelSet is one set: an instance (pcp.InNull unless INSTANCES), the
// JSON text and its label index. NLabels < 0 is an error code for the
// set. A set without labels (NLabels ≤ 0) has no JSON either: the decoder
// checks the JSON span's bounds but, like libpcp, does not return its
// bytes, and Append sends none.
type LabelSet struct {
	Inst    int32
	NLabels int32 // len(Labels), or a negative PM_ERR_* code
	JSON    []byte
	Labels  []LabelEntry
}

// LabelEntry locates one label inside its set's JSON.
type LabelEntry struct {
	Name     uint16 // byte offset of the name within the set's JSON
	NameLen  uint8
	Flags    uint8  // PM_LABEL_* level and option bits
	Value    uint16 // byte offset of the value within the set's JSON
	ValueLen uint16
}

// Type returns TypeLabel.
func (*LabelPDU) Type() Type { return TypeLabel }

// sent is s as Append puts it on the wire.
func (s LabelSet) sent() LabelSet {
	switch {
	case s.NLabels < 0:
		return LabelSet{Inst: s.Inst, NLabels: s.NLabels}
	case len(s.Labels) == 0:
		return LabelSet{Inst: s.Inst}
	}
	s.NLabels = int32(len(s.Labels))
	return s
}

// Append appends the PDU: header, all set headers with their label
// entries, then every set's JSON unpadded (28 + Σ(16 + 8·nlabels) +
// Σjsonlen bytes). NLabels is sent as len(Labels) unless it is negative;
// a set without labels, or an error set (NLabels < 0), is sent without
// JSON, as libpcp reads it.
func (m *LabelPDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypeLabel, from)
	b = wire.AppendU32BE(b, m.Ident)
	b = wire.AppendU32BE(b, uint32(m.Kind))
	b = wire.AppendU32BE(b, 0)
	b = wire.AppendU32BE(b, uint32(len(m.Sets)))
	json := 28
	for _, s := range m.Sets {
		json += 16 + 8*len(s.sent().Labels)
	}
	for _, s := range m.Sets {
		s = s.sent()
		b = wire.AppendU32BE(b, uint32(s.Inst))
		b = wire.AppendU32BE(b, uint32(s.NLabels))
		b = wire.AppendU32BE(b, uint32(json))
		b = wire.AppendU32BE(b, uint32(len(s.JSON)))
		json += len(s.JSON)
		for _, l := range s.Labels {
			b = wire.AppendU16BE(b, l.Name)
			b = append(b, l.NameLen, l.Flags)
			b = wire.AppendU16BE(b, l.Value)
			b = wire.AppendU16BE(b, l.ValueLen)
		}
	}
	for _, s := range m.Sets {
		b = append(b, s.sent().JSON...)
	}
	return finish(b, start)
}

// UnmarshalBinary decodes a LABEL PDU. It fails with [ErrTruncated] below
// 28 bytes or when a set header or its entries cross the end; with
// [ErrCount] for nsets outside 0…(len − 16)/16 or nlabels ≥ 255; with
// [ErrField] for a negative json offset, a jsonlen outside 0…65534, JSON
// past the end, or a label name or value outside its set's JSON; and with
// [ErrTrailing] if len exceeds pad4 of the last JSON's end.
func (m *LabelPDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypeLabel, 28); err != nil {
		return err
	}
	m.Ident, m.Kind = be32(pdu, 12), int32(be32(pdu, 16))
	n := int32(be32(pdu, 24))
	sets := m.Sets[:0]
	// The sets are walked by re-slicing rest, which proves every read in
	// bounds, where a cursor's reads kept a bounds check each.
	rest := pdu[28:]
	end := uint64(28)
	// Every failure goes to one fail call: each call and its return is
	// code (module size; see wasm/size).
	var bad failure
	if n < 0 || uint64(n) > uint64(len(pdu)-16)/16 {
		bad = failure{"LABEL.nsets", 24, ErrCount}
		goto fail
	}
	for range int(n) {
		o := len(pdu) - len(rest)
		if len(rest) < 16 {
			bad = failure{"LABEL.set", o, ErrTruncated}
			goto fail
		}
		inst := binary.BigEndian.Uint32(rest)
		nl, js, jl := int32(binary.BigEndian.Uint32(rest[4:])), int32(binary.BigEndian.Uint32(rest[8:])), int32(binary.BigEndian.Uint32(rest[12:]))
		rest = rest[16:]
		if nl > MaxLabels {
			bad = failure{"LABEL.nlabels", o + 4, ErrCount}
			goto fail
		}
		if js < 0 || jl < 0 || jl > MaxJSONLen || uint64(js)+uint64(jl) > uint64(len(pdu)) {
			bad = failure{"LABEL.json", o + 8, ErrField}
			goto fail
		}
		var s LabelSet
		if len(sets) < cap(sets) {
			s = sets[:len(sets)+1][len(sets)]
		}
		s.Inst, s.NLabels = int32(inst), nl
		s.JSON = pdu[js : js+jl : js+jl]
		if nl <= 0 {
			s.JSON = nil
		}
		s.Labels = s.Labels[:0]
		for range int(max(nl, 0)) {
			lo := len(pdu) - len(rest)
			if len(rest) < 8 {
				bad = failure{"LABEL.label", lo, ErrTruncated}
				goto fail
			}
			l := LabelEntry{
				Name:     binary.BigEndian.Uint16(rest),
				NameLen:  rest[2],
				Flags:    rest[3],
				Value:    binary.BigEndian.Uint16(rest[4:]),
				ValueLen: binary.BigEndian.Uint16(rest[6:]),
			}
			rest = rest[8:]
			if int(l.Name)+int(l.NameLen) > int(jl) || int(l.Value)+int(l.ValueLen) > int(jl) {
				bad = failure{"LABEL.label", lo, ErrField}
				goto fail
			}
			s.Labels = append(s.Labels, l)
		}
		end = uint64(js) + uint64(jl)
		sets = append(sets, s)
	}
	m.Sets = sets
	if uint64(len(pdu)) > (end+3)&^3 { // with no sets, end is 28
		bad = failure{"LABEL", int(end), ErrTrailing}
		goto fail
	}
	return nil
fail:
	return fail(bad.field, bad.off, bad.kind)
}
