package pduwire

import (
	"encoding/binary"

	"github.com/perfwire/perfwire/internal/wire"
)

// PMNSNamesPDU is a PMNS_NAMES PDU (0x700e, docs/pcp-pdu.md §4.13): metric names or
// name components, optionally each with a status (0 leaf, 1 non-leaf).
// A negative numnames on the wire is a PM_ERR_* code from the peer; it is
// reported in Status, not as a decode error.
type PMNSNamesPDU struct {
	Status   int32    // 0, or the negative code sent in place of numnames
	Names    [][]byte // no NULs
	Statuses []int32  // nil, or one per name
}

// Type returns TypePMNSNames.
func (*PMNSNamesPDU) Type() Type { return TypePMNSNames }

// Append appends the PDU (24 + Σ(4·[status] + 4 + pad4(namelen)) bytes),
// with nstrbytes = Σ(namelen + 1) as libpcp computes it. Statuses is sent
// only when it has one entry per name. Names must not be empty: libpcp's
// decoder (and ours) sizes its room check on at least one name byte each.
func (m *PMNSNamesPDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypePMNSNames, from)
	if m.Status < 0 {
		b = wire.AppendU32BE(b, 0)
		b = wire.AppendU32BE(b, 0)
		b = wire.AppendU32BE(b, uint32(m.Status))
		return finish(b, start)
	}
	strbytes := 0
	for _, n := range m.Names {
		strbytes += len(n) + 1
	}
	withStatus := len(m.Statuses) == len(m.Names) && len(m.Names) > 0
	b = wire.AppendU32BE(b, uint32(strbytes))
	if withStatus {
		b = wire.AppendU32BE(b, uint32(len(m.Names)))
	} else {
		b = wire.AppendU32BE(b, 0)
	}
	b = wire.AppendU32BE(b, uint32(len(m.Names)))
	for i, n := range m.Names {
		if withStatus {
			b = wire.AppendU32BE(b, uint32(m.Statuses[i]))
		}
		b = appendString(b, n)
	}
	return finish(b, start)
}

// UnmarshalBinary decodes a PMNS_NAMES PDU. It fails with [ErrTruncated]
// below 24 bytes or when a name header or name crosses the end; with
// [ErrCount] for a negative nstrbytes or one above len, numnames above the
// room ((len − 24)/8, or /12 with statuses), numstatus other than 0 or
// numnames, or names that do not fit in nstrbytes; with [ErrTrailing] for
// more than 3 bytes after the last name.
func (m *PMNSNamesPDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypePMNSNames, 24); err != nil {
		return err
	}
	m.Status, m.Names, m.Statuses = 0, m.Names[:0], m.Statuses[:0]
	strbytes := int32(be32(pdu, 12))
	numstatus := int32(be32(pdu, 16))
	n := int32(be32(pdu, 20))
	if n < 0 {
		m.Status, m.Statuses = n, nil
		return nil
	}
	if n == 0 {
		m.Statuses = nil
		return nil
	}
	per := uint64(8)
	if numstatus != 0 {
		per = 12
	}
	left := int64(strbytes)
	// The names are walked by re-slicing rest, which proves every read
	// in bounds, where a cursor's reads kept a bounds check each.
	rest := pdu[24:]
	// Every failure goes to one fail call: each call and its return is
	// code (module size; see wasm/size).
	var bad failure
	switch {
	case strbytes < 0 || int64(strbytes) > int64(len(pdu)):
		bad = failure{"PMNS_NAMES.nstrbytes", 12, ErrCount}
	case uint64(n) > uint64(len(pdu)-24)/per:
		bad = failure{"PMNS_NAMES.numnames", 20, ErrCount}
	case numstatus != 0 && numstatus != n:
		bad = failure{"PMNS_NAMES.numstatus", 16, ErrCount}
	}
	if bad.kind != nil {
		goto fail
	}
	if numstatus == 0 {
		m.Statuses = nil
	}
	for range int(n) {
		o := len(pdu) - len(rest)
		if numstatus != 0 {
			if len(rest) < 4 {
				bad = failure{"PMNS_NAMES.status", o, ErrTruncated}
				goto fail
			}
			m.Statuses = append(m.Statuses, int32(binary.BigEndian.Uint32(rest)))
			rest = rest[4:]
			o += 4
		}
		if len(rest) < 4 {
			bad = failure{"PMNS_NAMES.namelen", o, ErrTruncated}
			goto fail
		}
		nl := binary.BigEndian.Uint32(rest)
		rest = rest[4:]
		if uint64(nl) > uint64(len(rest)) {
			bad = failure{"PMNS_NAMES.name", o, ErrTruncated}
			goto fail
		}
		if left -= int64(nl) + 1; left < 0 {
			bad = failure{"PMNS_NAMES.namelen", o, ErrCount}
			goto fail
		}
		m.Names = append(m.Names, rest[:nl:nl])
		// The name and its pad, or what is left: the last pad may be
		// missing.
		rest = rest[min(wire.Pad4(int(nl)), len(rest)):]
	}
	if len(rest) <= 3 {
		return nil
	}
	bad = failure{"PMNS_NAMES", len(pdu) - len(rest), ErrTrailing}
fail:
	return fail(bad.field, bad.off, bad.kind)
}

// PMNSChildPDU is a PMNS_CHILD (0x700f) or, with Traverse set, a
// PMNS_TRAVERSE (0x7010) PDU: the children of, or all leaves below, a
// namespace node (the root is the empty name).
type PMNSChildPDU struct {
	Traverse bool
	Subtype  int32 // CHILD: 0 names only, 1 names and status; TRAVERSE: 0
	Name     []byte
}

// Type returns TypePMNSTraverse or TypePMNSChild.
func (m *PMNSChildPDU) Type() Type {
	if m.Traverse {
		return TypePMNSTraverse
	}
	return TypePMNSChild
}

// Append appends the PDU (20 + pad4(namelen) bytes).
func (m *PMNSChildPDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, m.Type(), from)
	b = wire.AppendU32BE(b, uint32(m.Subtype))
	return finish(appendString(b, m.Name), start)
}

// UnmarshalBinary decodes a PMNS_CHILD or PMNS_TRAVERSE PDU: len ≥ 20
// ([ErrTruncated]) and 0 ≤ namelen ≤ len − 20 ([ErrCount]), as libpcp
// requires; trailing bytes are tolerated.
func (m *PMNSChildPDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypePMNSChild, 20); err != nil {
		return err
	}
	n := int32(be32(pdu, 16))
	if n < 0 || uint64(n) > uint64(len(pdu)-20) {
		return fail("PMNS_CHILD.namelen", 16, ErrCount)
	}
	m.Traverse = Type(be32(pdu, 4)) == TypePMNSTraverse
	m.Subtype = int32(be32(pdu, 12))
	m.Name = pdu[20 : 20+n : 20+n]
	return nil
}
