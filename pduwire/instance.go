package pduwire

import (
	"encoding/binary"
	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pcp"
)

// InstanceReqPDU is an INSTANCE_REQ PDU (0x7006, docs/pcp-pdu.md §4.11): Inst =
// pcp.InNull and an empty Name ask for the whole domain; an Inst asks for
// its name; a Name asks for its instance number.
type InstanceReqPDU struct {
	InDom pcp.InDom
	Inst  int32
	Name  []byte // no NUL; libpcp stops at an embedded NUL, we keep the bytes
}

// Type returns TypeInstanceReq.
func (*InstanceReqPDU) Type() Type { return TypeInstanceReq }

// Append appends the PDU (32 + pad4(namelen) bytes).
func (m *InstanceReqPDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypeInstanceReq, from)
	b = wire.AppendU32BE(b, uint32(m.InDom))
	b = wire.AppendZeros(b, 8)
	b = wire.AppendU32BE(b, uint32(m.Inst))
	b = appendString(b, m.Name)
	return finish(b, start)
}

// appendString appends a byte count, the bytes and zero padding to 4.
func appendString(b []byte, s []byte) []byte {
	b = wire.AppendU32BE(b, uint32(len(s)))
	start := len(b)
	b = append(b, s...)
	return wire.AppendPad4(b, start)
}

// UnmarshalBinary decodes an INSTANCE_REQ PDU: len ≥ 32 ([ErrTruncated]),
// namelen ≥ 0 and inside the PDU ([ErrCount]), and then len at most
// 32 + pad4(namelen) ([ErrLength]): like libpcp 6.0.3 (and as for
// INSTANCE and TEXT), the final pad may be missing, wholly or in part.
func (m *InstanceReqPDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypeInstanceReq, 32); err != nil {
		return err
	}
	m.InDom, m.Inst = pcp.InDom(be32(pdu, 12)), int32(be32(pdu, 24))
	n := int32(be32(pdu, 28))
	// Every failure goes to one fail call: each call and its return is
	// code (module size; see wasm/size).
	var bad failure
	if n < 0 || uint64(n) > uint64(len(pdu)-32) {
		bad = failure{"INSTANCE_REQ.namelen", 28, ErrCount}
		goto fail
	}
	if n > 0 {
		if len(pdu) > 32+wire.Pad4(int(n)) {
			bad = failure{"INSTANCE_REQ.len", 0, ErrLength}
			goto fail
		}
	} else if len(pdu) != 32 {
		bad = failure{"INSTANCE_REQ", 32, ErrTrailing}
		goto fail
	}
	m.Name = pdu[32 : 32+n : 32+n]
	return nil
fail:
	return fail(bad.field, bad.off, bad.kind)
}

// InstancePDU is an INSTANCE PDU (0x7007): instance numbers and names of an
// instance domain. Single lookups return one partial entry (a number with
// an empty name, or pcp.InNull with a name).
type InstancePDU struct {
	InDom     pcp.InDom
	Instances []InstanceEntry
}

// InstanceEntry is one instance.
type InstanceEntry struct {
	Inst int32
	Name []byte
}

// Type returns TypeInstance.
func (*InstancePDU) Type() Type { return TypeInstance }

// Append appends the PDU (20 + Σ(8 + pad4(namelen)) bytes).
func (m *InstancePDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypeInstance, from)
	b = wire.AppendU32BE(b, uint32(m.InDom))
	b = wire.AppendU32BE(b, uint32(len(m.Instances)))
	for _, e := range m.Instances {
		b = wire.AppendU32BE(b, uint32(e.Inst))
		b = appendString(b, e.Name)
	}
	return finish(b, start)
}

// UnmarshalBinary decodes an INSTANCE PDU: len ≥ 20 ([ErrTruncated]);
// 0 ≤ numinst ≤ (len − 20)/8 ([ErrCount]); each entry header and name
// inside the PDU ([ErrTruncated]); no padded advance past the end
// ([ErrTruncated]) except the final pad, which may be missing; nothing
// after the last entry ([ErrTrailing]).
func (m *InstancePDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypeInstance, 20); err != nil {
		return err
	}
	m.InDom = pcp.InDom(be32(pdu, 12))
	n := int32(be32(pdu, 16))
	// The entries are walked by re-slicing rest, which proves every read
	// in bounds, where a cursor's reads kept a bounds check each.
	rest := pdu[20:]
	// Every failure goes to one fail call: each call and its return is
	// code (module size; see wasm/size).
	var bad failure
	if n < 0 || uint64(n) > uint64(len(pdu)-20)/8 {
		bad = failure{"INSTANCE.numinst", 16, ErrCount}
		goto fail
	}
	m.Instances = m.Instances[:0]
	for i := range int(n) {
		o := len(pdu) - len(rest)
		if len(rest) < 8 {
			bad = failure{"INSTANCE.entry", o, ErrTruncated}
			goto fail
		}
		inst, nl := binary.BigEndian.Uint32(rest), binary.BigEndian.Uint32(rest[4:])
		rest = rest[8:]
		if int32(nl) < 0 {
			bad = failure{"INSTANCE.namelen", o + 4, ErrCount}
			goto fail
		}
		// The name, then its pad: the last entry's may be missing.
		padded := wire.Pad4(int(nl))
		if uint64(nl) > uint64(len(rest)) || padded > len(rest) && i != int(n)-1 {
			bad = failure{"INSTANCE.name", o + 8, ErrTruncated}
			goto fail
		}
		m.Instances = append(m.Instances, InstanceEntry{Inst: int32(inst), Name: rest[:nl:nl]})
		rest = rest[min(padded, len(rest)):]
	}
	if len(rest) != 0 {
		bad = failure{"INSTANCE", len(pdu) - len(rest), ErrTrailing}
		goto fail
	}
	return nil
fail:
	return fail(bad.field, bad.off, bad.kind)
}
