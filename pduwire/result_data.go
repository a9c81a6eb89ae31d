package pduwire

import (
	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pcp"
)

// ResultPDU is the owned, buildable form of a RESULT or HIGHRES_RESULT,
// for encoders, stores and tests. Decoding into it ([ResultPDU.UnmarshalBinary])
// reuses its slices; payloads alias the decoded PDU.
type ResultPDU struct {
	HighRes bool
	Sec     int64 // tv_sec; RESULT keeps only the low 32 bits
	Nsec    int64 // nanoseconds; RESULT sends Nsec / 1000 as tv_usec
	Sets    []ValueSetData
}

// ValueSetData is one metric's values in a [ResultPDU].
type ValueSetData struct {
	PMID pcp.ID
	// NumVal is sent only when Values is empty: 0 for "no values" or a
	// negative PM_ERR_* code. With values, len(Values) is sent.
	NumVal int32
	ValFmt uint8 // ValInsitu, ValDPTR or ValSPTR
	Values []ValueData
}

// ValueData is one value: an insitu Word, or (for pointer formats) a
// block of type BlockType whose payload is Payload.
type ValueData struct {
	Inst      int32
	Word      uint32 // the insitu value; ignored for pointer formats
	BlockType pcp.Type
	Payload   []byte
}

// Type returns TypeHighResResult or TypeResult.
func (m *ResultPDU) Type() Type {
	if m.HighRes {
		return TypeHighResResult
	}
	return TypeResult
}

// Append appends the PDU as libpcp encodes it: value-set records in
// order, then each value block right after the previous one, in the order
// the records reference them, with zero pad bytes. Payloads longer than
// the 24-bit vlen allows are the caller's error and are cut short.
func (m *ResultPDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, m.Type(), from)
	if m.HighRes {
		b = wire.AppendU32BE(b, uint32(len(m.Sets)))
		b = wire.AppendU64BE(b, uint64(m.Sec))
		b = wire.AppendU64BE(b, uint64(m.Nsec))
	} else {
		b = wire.AppendU32BE(b, uint32(m.Sec))
		b = wire.AppendU32BE(b, uint32(m.Nsec/1000))
		b = wire.AppendU32BE(b, uint32(len(m.Sets)))
	}
	// Word index of the next block: records come first, so count them.
	next := len(b) - start
	for i := range m.Sets {
		next += m.Sets[i].size()
	}
	for i := range m.Sets {
		vs := &m.Sets[i]
		b = wire.AppendU32BE(b, uint32(vs.PMID))
		if len(vs.Values) == 0 {
			b = wire.AppendU32BE(b, uint32(min(vs.NumVal, 0)))
			continue
		}
		b = wire.AppendU32BE(b, uint32(len(vs.Values)))
		b = wire.AppendU32BE(b, uint32(vs.ValFmt))
		// Values by index, here and below: a PMDA's RESULT holds
		// thousands, and copying each 40-byte ValueData costs more than
		// encoding it.
		if vs.ValFmt == ValInsitu {
			for j := range vs.Values {
				v := &vs.Values[j]
				b = wire.AppendU32BE(b, uint32(v.Inst))
				b = wire.AppendU32BE(b, v.Word)
			}
			continue
		}
		for j := range vs.Values {
			v := &vs.Values[j]
			b = wire.AppendU32BE(b, uint32(v.Inst))
			b = wire.AppendU32BE(b, uint32(next/4))
			next += wire.Pad4(4 + blockLen(v.Payload))
		}
	}
	for i := range m.Sets {
		vs := &m.Sets[i]
		if vs.ValFmt == ValInsitu {
			continue
		}
		for j := range vs.Values {
			v := &vs.Values[j]
			p := v.Payload[:blockLen(v.Payload)]
			b = wire.AppendU32BE(b, uint32(v.BlockType)<<24|uint32(4+len(p)))
			// 64-bit numbers, the common block, skip the generic copy.
			if len(p) == 8 {
				b = append(b, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7])
				continue
			}
			b = append(b, p...)
			b = wire.AppendZeros(b, wire.Pad4(len(p))-len(p))
		}
	}
	return finish(b, start)
}

// blockLen caps a payload at what a 24-bit vlen can describe.
func blockLen(p []byte) int { return min(len(p), 0xffffff-4) }

// size returns the record's size in bytes.
func (vs *ValueSetData) size() int {
	if len(vs.Values) == 0 {
		return 8
	}
	return 12 + 8*len(vs.Values)
}

// UnmarshalBinary decodes a whole RESULT or HIGHRES_RESULT PDU into m,
// reusing m's slices; payloads alias pdu. It fails as [ParseResult] does,
// leaving m in an unspecified state.
func (m *ResultPDU) UnmarshalBinary(pdu []byte) error {
	r, err := ParseResult(pdu)
	if err != nil {
		return err
	}
	r.AppendTo(m)
	return nil
}

// AppendTo fills m from the view r, reusing m's slices.
func (r *Result) AppendTo(m *ResultPDU) {
	m.HighRes, m.Sec, m.Nsec = r.HighRes, r.Sec, r.Nsec
	sets := m.Sets[:0]
	s := r.Scan()
	for s.Next() {
		vs := s.ValueSet()
		var d ValueSetData
		if len(sets) < cap(sets) {
			d = sets[:len(sets)+1][len(sets)]
		}
		d.PMID, d.NumVal, d.ValFmt = vs.PMID, vs.NumVal, vs.ValFmt
		d.Values = d.Values[:0]
		for j := range vs.Len() {
			v := vs.Value(j)
			vd := ValueData{Inst: v.Inst, Word: v.Word}
			if v.Block() {
				vd.Word, vd.BlockType, vd.Payload = 0, v.BlockType(), v.Payload()
			}
			d.Values = append(d.Values, vd)
		}
		sets = append(sets, d)
	}
	m.Sets = sets
}
