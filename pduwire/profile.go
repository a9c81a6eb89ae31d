package pduwire

import (
	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pcp"
)

// Profile states (PM_PROFILE_*).
const (
	ProfileInclude = 0
	ProfileExclude = 1
)

// ProfilePDU is a PROFILE PDU (0x7002, docs/pcp-pdu.md §4.3): which instances of which
// instance domains a context wants.
type ProfilePDU struct {
	Ctx     int32 // context number, ≥ 0
	State   int32 // global state: ProfileInclude or ProfileExclude
	Entries []ProfileEntry
}

// ProfileEntry is one instance domain's exception list.
type ProfileEntry struct {
	InDom pcp.InDom
	State int32
	Insts []int32
}

// Type returns TypeProfile.
func (*ProfilePDU) Type() Type { return TypeProfile }

// Append appends the PDU: 28 + 16·numprof + 4·Σnuminst bytes.
func (m *ProfilePDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypeProfile, from)
	b = wire.AppendU32BE(b, uint32(m.Ctx))
	b = wire.AppendU32BE(b, uint32(m.State))
	b = wire.AppendU32BE(b, uint32(len(m.Entries)))
	b = wire.AppendU32BE(b, 0)
	for _, e := range m.Entries {
		b = wire.AppendU32BE(b, uint32(e.InDom))
		b = wire.AppendU32BE(b, uint32(e.State))
		b = wire.AppendU32BE(b, uint32(len(e.Insts)))
		b = wire.AppendU32BE(b, 0)
	}
	for _, e := range m.Entries {
		for _, in := range e.Insts {
			b = wire.AppendU32BE(b, uint32(in))
		}
	}
	return finish(b, start)
}

// UnmarshalBinary decodes a PROFILE PDU: len ≥ 24 ([ErrTruncated]),
// ctxid ≥ 0 ([ErrField]), numprof and each numinst non-negative and
// within the room left ([ErrCount]), and no bytes after the instance
// lists ([ErrTrailing]) when numprof > 0. With numprof 0 the trailing pad
// may be missing and extra bytes are ignored, as libpcp does.
func (m *ProfilePDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypeProfile, 24); err != nil {
		return err
	}
	m.Ctx, m.State = int32(be32(pdu, 12)), int32(be32(pdu, 16))
	n := int32(be32(pdu, 20))
	entries := m.Entries[:0]
	ip := 28 + 16*int(n) // instance lists start after all entries
	// Every failure goes to one fail call: each call and its return is
	// code (module size; see wasm/size).
	var bad failure
	if m.Ctx < 0 {
		bad = failure{"PROFILE.ctxid", 12, ErrField}
		goto fail
	}
	if n < 0 || (n > 0 && (len(pdu) < 28 || uint64(n) > uint64(len(pdu)-28)/16)) {
		bad = failure{"PROFILE.numprof", 20, ErrCount}
		goto fail
	}
	if n == 0 {
		// libpcp ignores whatever follows an empty profile.
		m.Entries = m.Entries[:0]
		return nil
	}
	for i := range int(n) {
		o := 28 + 16*i
		var e ProfileEntry
		if len(entries) < cap(entries) {
			e = entries[:len(entries)+1][len(entries)]
		}
		e.InDom, e.State = pcp.InDom(be32(pdu, o)), int32(be32(pdu, o+4))
		ni := int32(be32(pdu, o+8))
		if ni < 0 || uint64(ni) > uint64(len(pdu)-ip)/4 {
			bad = failure{"PROFILE.numinst", o + 8, ErrCount}
			goto fail
		}
		e.Insts = e.Insts[:0]
		for range int(ni) {
			e.Insts = append(e.Insts, int32(be32(pdu, ip)))
			ip += 4
		}
		entries = append(entries, e)
	}
	m.Entries = entries
	if ip != len(pdu) {
		bad = failure{"PROFILE", ip, ErrTrailing}
		goto fail
	}
	return nil
fail:
	return fail(bad.field, bad.off, bad.kind)
}
