package pduwire_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"runtime"
	"strconv"
	"testing"

	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pduwire"
)

// This file is the systematic form of the docs/pcp-pdu.md §8.2 item "every
// count at −1, 0, 1, max, len, len/4+1, INT_MAX": every count or length
// word of every PDU type that has one is overwritten with each of those
// values in a real or spec-built PDU, and the decoder's answer is compared
// with what the spec's rules (§4.2–§4.17) say about the resulting bytes.

// errReject stands for "rejected with some typed pduwire error": used only
// where the forged count makes the decoder read unrelated bytes (JSON,
// names) as the next structure, so the precise failure depends on them.
var errReject = errors.New("any pduwire rejection")

// verdict is the expected answer: kind nil means the bytes are still
// valid; off < 0 means the offset is not checked.
type verdict struct {
	kind error
	off  int
}

func ok() verdict                     { return verdict{nil, -1} }
func bad(kind error, off int) verdict { return verdict{kind, off} }
func anyBad() verdict                 { return verdict{errReject, -1} }
func pad4(n int64) int64              { return (n + 3) &^ 3 }
func be32At(b []byte, off int) int64  { return int64(int32(binary.BigEndian.Uint32(b[off:]))) }
func u32At(b []byte, off int) uint32  { return binary.BigEndian.Uint32(b[off:]) }
func capturePDU(t *testing.T, typ pduwire.Type, pred func([]byte) bool) []byte {
	t.Helper()
	for _, conv := range captures(t) {
		for _, dir := range []string{"client", "server"} {
			for _, p := range loadStream(t, conv, dir).pdus {
				if p.Header.Type == typ && (pred == nil || pred(p.Bytes)) {
					return bytes.Clone(p.Bytes)
				}
			}
		}
	}
	t.Fatalf("no %v PDU of the wanted shape in the captures", typ)
	return nil
}

// countCase is one count or length field of one base PDU.
type countCase struct {
	name string
	base []byte
	off  int   // offset of the field
	max  int64 // the field's largest legal value for this PDU (docs/pcp-pdu.md §2.5 limit or the room the bytes give)
	want func(v, l int64) verdict
}

// forged lists the values of docs/pcp-pdu.md §8.2 for a field in a PDU of length l, plus
// the original value and max+1.
func forged(orig, max, l int64) []int64 {
	return []int64{-1, 0, 1, max, max + 1, l, l/4 + 1, math.MaxInt32, orig}
}

// sentinels are every kind a pduwire decoder may return.
var sentinels = []error{
	pduwire.ErrTruncated, pduwire.ErrHeaderLen, pduwire.ErrLimit, pduwire.ErrType,
	pduwire.ErrLength, pduwire.ErrCount, pduwire.ErrTrailing, pduwire.ErrValueFormat,
	pduwire.ErrValueBlock, pduwire.ErrOverlap, pduwire.ErrContiguity, pduwire.ErrField,
	pduwire.ErrEvent,
}

func countCases(t *testing.T) []countCase {
	const pmid = 0x07400005
	var cs []countCase

	// docs/pcp-pdu.md §4.2 CREDS: 1 ≤ numcreds ≤ 1024, len exactly 16 + 4·numcreds.
	creds := capturePDU(t, pduwire.TypeCreds, nil)
	cs = append(cs, countCase{"CREDS numcreds (capture)", creds, 12, pduwire.MaxCreds, func(v, l int64) verdict {
		switch {
		case v < 1 || v > pduwire.MaxCreds:
			return bad(pduwire.ErrCount, 12)
		case 16+4*v != l:
			return bad(pduwire.ErrLength, 0)
		}
		return ok()
	}})

	// docs/pcp-pdu.md §4.3 PROFILE: numprof ≥ 0 within (len−28)/16; an empty profile
	// ignores what follows; each numinst ≥ 0 within the instance bytes;
	// nothing after the last list.
	// profileRule decides every numprof except a positive one within the
	// room, whose answer depends on the entries (decided false).
	profileRule := func(v, l int64) (verdict, bool) {
		switch {
		case v < 0 || (v > 0 && v > (l-28)/16):
			return bad(pduwire.ErrCount, 20), true
		case v == 0:
			return ok(), true
		}
		return verdict{}, false
	}
	defProfile := capturePDU(t, pduwire.TypeProfile, func(b []byte) bool { return len(b) == 28 })
	cs = append(cs, countCase{"PROFILE numprof (capture, default)", defProfile, 20, 0, func(v, l int64) verdict {
		w, _ := profileRule(v, l) // a 28-byte profile has no room for an entry
		return w
	}})
	// One entry, indom 29.2 excluded with instances 5 and 6 (len 52).
	prof := mk(pduwire.TypeProfile, 0, 0, 1, 0, 0x07400002, 1, 2, 0, 5, 6)
	cs = append(cs, countCase{"PROFILE numprof (one entry)", prof, 20, 1, func(v, l int64) verdict {
		if w, decided := profileRule(v, l); decided {
			return w
		}
		return ok() // v == 1, the original
	}})
	cs = append(cs, countCase{"PROFILE numinst", prof, 36, 2, func(v, l int64) verdict {
		switch {
		case v < 0 || v > (l-44)/4:
			return bad(pduwire.ErrCount, 36)
		case v < 2:
			return bad(pduwire.ErrTrailing, int(44+4*v))
		}
		return ok()
	}})

	// docs/pcp-pdu.md §4.4 FETCH / HIGHRES_FETCH: numpmid ≥ 1, len exactly 28 + 4·numpmid.
	fetchRule := func(v, l int64) verdict {
		switch {
		case v < 1 || v > (l-28)/4:
			return bad(pduwire.ErrCount, 24)
		case 28+4*v != l:
			return bad(pduwire.ErrLength, 0)
		}
		return ok()
	}
	hf := capturePDU(t, pduwire.TypeHighResFetch, func(b []byte) bool { return be32At(b, 24) > 1 })
	cs = append(cs, countCase{"HIGHRES_FETCH numpmid (capture)", hf, 24, (int64(len(hf)) - 28) / 4, fetchRule})
	fetch := mk(pduwire.TypeFetch, 0, 0, 0, 2, pmid, pmid+1)
	cs = append(cs, countCase{"FETCH numpmid", fetch, 24, 2, fetchRule})

	// docs/pcp-pdu.md §4.10 DESC_IDS and §4.13 PMNS_IDS: numids ≥ 1, len exactly 20 + 4·n.
	idsRule := func(v, l int64) verdict {
		switch {
		case v < 1 || v > (l-20)/4:
			return bad(pduwire.ErrCount, 16)
		case 20+4*v != l:
			return bad(pduwire.ErrLength, 0)
		}
		return ok()
	}
	pmnsIDs := capturePDU(t, pduwire.TypePMNSIDs, func(b []byte) bool { return be32At(b, 16) > 1 })
	cs = append(cs, countCase{"PMNS_IDS numids (capture)", pmnsIDs, 16, (int64(len(pmnsIDs)) - 20) / 4, idsRule})
	descIDs := mk(pduwire.TypeDescIDs, m1, 3, pmid, pmid+1, pmid+2)
	cs = append(cs, countCase{"DESC_IDS numids", descIDs, 16, 3, idsRule})

	// docs/pcp-pdu.md §4.10 DESCS: numdescs ≥ 1, len exactly 16 + 20·n.
	descs := mk(pduwire.TypeDescs, 2, pmid, 3, 0x07400001, 4, 0, pmid+1, 6, m1, 3, 0)
	cs = append(cs, countCase{"DESCS numdescs", descs, 12, 2, func(v, l int64) verdict {
		switch {
		case v < 1 || v > (l-16)/20:
			return bad(pduwire.ErrCount, 12)
		case 16+20*v != l:
			return bad(pduwire.ErrLength, 0)
		}
		return ok()
	}})

	// docs/pcp-pdu.md §4.11 INSTANCE_REQ: namelen ≥ 0 within the PDU; with namelen > 0
	// len is exactly 32 + pad4(namelen), with 0 it is 32.
	ireqRule := func(v, l int64) verdict {
		switch {
		case v < 0 || v > l-32:
			return bad(pduwire.ErrCount, 28)
		case v == 0 && l != 32:
			return bad(pduwire.ErrTrailing, 32)
		case v > 0 && 32+pad4(v) != l:
			return bad(pduwire.ErrLength, 0)
		}
		return ok() // any namelen whose padded size is the same
	}
	// The captures hold whole-indom requests (namelen 0, len 32) only.
	ireq := capturePDU(t, pduwire.TypeInstanceReq, nil)
	cs = append(cs, countCase{"INSTANCE_REQ namelen (capture)", ireq, 28, 0, ireqRule})
	named := withBytes(mk(pduwire.TypeInstanceReq, 0x07400001, 0, 0, m1, 5), 'g', 'r', 'e', 'e', 'n', 0, 0, 0)
	cs = append(cs, countCase{"INSTANCE_REQ namelen (name)", named, 28, 8, ireqRule})

	// docs/pcp-pdu.md §4.11 INSTANCE: numinst ≥ 0 within (len−20)/8; entries in bounds;
	// nothing after the last entry except a missing final pad.
	inst := capturePDU(t, pduwire.TypeInstance, func(b []byte) bool { return be32At(b, 16) >= 3 })
	n0 := be32At(inst, 16)
	cs = append(cs, countCase{"INSTANCE numinst (capture, listing)", inst, 16, (int64(len(inst)) - 20) / 8, func(v, l int64) verdict {
		switch {
		case v < 0 || v > (l-20)/8:
			return bad(pduwire.ErrCount, 16)
		case v < n0:
			return bad(pduwire.ErrTrailing, -1)
		case v > n0:
			return bad(pduwire.ErrTruncated, int(l))
		}
		return ok()
	}})
	// A single lookup by instance as pmcd answers it (docs/pcp-pdu.md §4.11 [cap]).
	one := withBytes(mk(pduwire.TypeInstance, 0x07400001, 1, m1, 5), 'g', 'r', 'e', 'e', 'n', '~', '~', '~')
	cs = append(cs, countCase{"INSTANCE namelen (one entry)", one, 24, int64(len(one)) - 28, func(v, l int64) verdict {
		switch {
		case v < 0:
			return bad(pduwire.ErrCount, 24)
		case v > l-28:
			return bad(pduwire.ErrTruncated, 28)
		case 28+pad4(v) < l:
			return bad(pduwire.ErrTrailing, int(28+pad4(v)))
		}
		return ok() // the name and, if present, its pad fill the PDU
	}})

	// docs/pcp-pdu.md §4.12 TEXT: 0 ≤ buflen ≤ len − 20 (the final pad may be missing,
	// F2), trailing bytes tolerated.
	text := capturePDU(t, pduwire.TypeText, nil)
	cs = append(cs, countCase{"TEXT buflen (capture)", text, 16, int64(len(text)) - 20, func(v, l int64) verdict {
		if v < 0 || v > l-20 {
			return bad(pduwire.ErrCount, 16)
		}
		return ok()
	}})

	// docs/pcp-pdu.md §4.13 PMNS_CHILD / PMNS_TRAVERSE: 0 ≤ namelen ≤ len − 20.
	childRule := func(v, l int64) verdict {
		if v < 0 || v > l-20 {
			return bad(pduwire.ErrCount, 16)
		}
		return ok()
	}
	trav := capturePDU(t, pduwire.TypePMNSTraverse, func(b []byte) bool { return be32At(b, 16) > 0 })
	cs = append(cs, countCase{"PMNS_TRAVERSE namelen (capture)", trav, 16, int64(len(trav)) - 20, childRule})
	child := withBytes(mk(pduwire.TypePMNSChild, 1, 6), 's', 'a', 'm', 'p', 'l', 'e', 0, 0)
	cs = append(cs, countCase{"PMNS_CHILD namelen", child, 16, 8, childRule})

	// docs/pcp-pdu.md §4.13 PMNS_NAMES without statuses: two names "ab", "cde"
	// (nstrbytes 7, len 44).
	names := withBytes(mk(pduwire.TypePMNSNames, 7, 0, 2, 2), 'a', 'b', 0, 0, 0, 0, 0, 3, 'c', 'd', 'e', 0)
	cs = append(cs, countCase{"PMNS_NAMES numnames", names, 20, (44 - 24) / 8, func(v, l int64) verdict {
		switch {
		case v <= 0: // an error code, or the empty answer
			return ok()
		case v > (l-24)/8:
			return bad(pduwire.ErrCount, 20)
		case v < 2:
			return bad(pduwire.ErrTrailing, -1)
		case v > 2:
			return bad(pduwire.ErrTruncated, -1)
		}
		return ok()
	}})
	cs = append(cs, countCase{"PMNS_NAMES nstrbytes", names, 12, 44, func(v, l int64) verdict {
		switch {
		case v < 0 || v > l:
			return bad(pduwire.ErrCount, 12)
		case v < 3:
			return bad(pduwire.ErrCount, 24) // "ab"+NUL does not fit
		case v < 7:
			return bad(pduwire.ErrCount, 32) // "cde"+NUL does not fit
		}
		return ok()
	}})
	cs = append(cs, countCase{"PMNS_NAMES namelen", names, 24, 4, func(v, l int64) verdict {
		switch {
		case v < 0 || v > l-28:
			return bad(pduwire.ErrTruncated, 24)
		case v > 2:
			// the name swallows the second entry: too long for
			// nstrbytes, or (when it stays within) leaves bytes over.
			if v+1 > 7 {
				return bad(pduwire.ErrCount, 24)
			}
			return anyBad()
		case v == 0:
			// no name, no pad: "ab\0\0" is read as the next namelen
			return bad(pduwire.ErrTruncated, 28)
		}
		// "a" has the same padded size as "ab": still valid
		return ok()
	}})
	// With statuses: numstatus must be 0 or numnames.
	withStatus := withBytes(mk(pduwire.TypePMNSNames, 3, 1, 1, 0, 2), 'a', 'b', 0, 0)
	cs = append(cs, countCase{"PMNS_NAMES numstatus", withStatus, 16, 1, func(v, l int64) verdict {
		switch {
		case v == 0:
			// read without statuses: the status word 0 becomes an
			// empty name and the real entry is left over.
			return bad(pduwire.ErrTrailing, -1)
		case v != 1:
			return bad(pduwire.ErrCount, 16)
		}
		return ok()
	}})
	cs = append(cs, countCase{"PMNS_NAMES numnames (statuses)", withStatus, 20, 1, func(v, l int64) verdict {
		switch {
		case v <= 0:
			return ok()
		case v > (l-24)/12:
			return bad(pduwire.ErrCount, 20)
		case v != 1:
			return bad(pduwire.ErrCount, 16)
		}
		return ok()
	}})

	// docs/pcp-pdu.md §4.15 LABEL, context labels as pmcd sent them (nsets 1, nlabels 3,
	// json at 68, jsonlen 91, len 159).
	lab := capturePDU(t, pduwire.TypeLabel, func(b []byte) bool {
		return be32At(b, 24) == 1 && be32At(b, 32) > 0 && len(b)%4 != 0
	})
	js, jl, nl := be32At(lab, 36), be32At(lab, 40), be32At(lab, 32)
	// span is the end of the furthest name or value inside the JSON.
	var span int64
	for i := range nl {
		e := lab[44+8*i:]
		span = max(span, int64(e[0])<<8|int64(e[1])+int64(e[2]), int64(e[4])<<8|int64(e[5])+(int64(e[6])<<8|int64(e[7])))
	}
	cs = append(cs, countCase{"LABEL nsets (capture)", lab, 24, (int64(len(lab)) - 16) / 16, func(v, l int64) verdict {
		switch {
		case v < 0 || v > (l-16)/16:
			return bad(pduwire.ErrCount, 24)
		case v == 0:
			return bad(pduwire.ErrTrailing, 28)
		case v > 1:
			return anyBad() // the next "set header" is label entries or JSON
		}
		return ok()
	}})
	cs = append(cs, countCase{"LABEL nlabels (capture)", lab, 32, pduwire.MaxLabels, func(v, l int64) verdict {
		switch {
		case v > pduwire.MaxLabels:
			return bad(pduwire.ErrCount, 32)
		case v <= nl:
			// negative: an error code, no entries; fewer entries:
			// the others are never looked at (libpcp does the same).
			return ok()
		}
		return anyBad() // entries read from the JSON text or past len
	}})
	cs = append(cs, countCase{"LABEL json (capture)", lab, 36, int64(len(lab)) - jl, func(v, l int64) verdict {
		switch {
		case v < 0 || v+jl > l:
			return bad(pduwire.ErrField, 36)
		case l > pad4(v+jl):
			return bad(pduwire.ErrTrailing, int(v+jl))
		}
		return ok()
	}})
	cs = append(cs, countCase{"LABEL jsonlen (capture)", lab, 40, pduwire.MaxJSONLen, func(v, l int64) verdict {
		switch {
		case v < 0 || v > pduwire.MaxJSONLen || js+v > l:
			return bad(pduwire.ErrField, 36)
		case v < span:
			return bad(pduwire.ErrField, -1) // a label leaves the JSON
		case l > pad4(js+v):
			return bad(pduwire.ErrTrailing, int(js+v))
		}
		return ok()
	}})
	// Indom instances without labels: nsets 3, each {inst, 0, json 76, 0}.
	empty := capturePDU(t, pduwire.TypeLabel, func(b []byte) bool { return be32At(b, 24) >= 2 && be32At(b, 32) == 0 })
	ns := be32At(empty, 24)
	cs = append(cs, countCase{"LABEL nsets (capture, empty sets)", empty, 24, (int64(len(empty)) - 16) / 16, func(v, l int64) verdict {
		switch {
		case v < 0 || v > (l-16)/16:
			return bad(pduwire.ErrCount, 24)
		case v == 0:
			return bad(pduwire.ErrTrailing, 28)
		case v > ns:
			return bad(pduwire.ErrTruncated, int(28+16*ns))
		}
		// fewer sets: every set ends where the PDU ends, so the
		// spec's final check (len ≤ pad4(json + jsonlen)) holds.
		return ok()
	}})

	// docs/pcp-pdu.md §4.16 LOG_CONTROL: one metric with one value (len 44).
	lc := mk(pduwire.TypeLogControl, 13, 0, 0, 1, pmid, 1, 0, 42)
	cs = append(cs, countCase{"LOG_CONTROL numpmid", lc, 24, 2, func(v, l int64) verdict {
		switch {
		case v < 0 || v > (l-28)/8:
			return bad(pduwire.ErrCount, 24)
		case v == 0: // the word at 28 belongs to libpcp's 32-byte minimum
			return bad(pduwire.ErrTrailing, 32)
		case v > 1:
			return bad(pduwire.ErrTruncated, 44)
		}
		return ok()
	}})
	cs = append(cs, countCase{"LOG_CONTROL numval", lc, 32, 1, func(v, l int64) verdict {
		switch {
		case v <= 0: // an error code or no values: the pair is left over
			return bad(pduwire.ErrTrailing, 36)
		case v > (l-36)/8:
			return bad(pduwire.ErrCount, 32)
		}
		return ok()
	}})

	// docs/pcp-pdu.md §4.16 LOG_STATUS: six string lengths 0…256 inside len, one pad at
	// the end. Base: host "pcp1" (5 with NUL), the others empty.
	ls := mk(pduwire.TypeLogStatus, append(make([]uint32, 13), 5, 0, 0, 0, 0, 0, 0x70637031, 0)...)
	cs = append(cs, countCase{"LOG_STATUS strlen", ls, 64, pduwire.MaxLogString, func(v, l int64) verdict {
		switch {
		case v < 0 || v > pduwire.MaxLogString:
			return bad(pduwire.ErrCount, 64)
		case v > l-88:
			return bad(pduwire.ErrTruncated, 88)
		case l-88-v > 3:
			return bad(pduwire.ErrTrailing, int(88+v))
		}
		return ok()
	}})
	cs = append(cs, countCase{"LOG_STATUS last strlen", ls, 84, pduwire.MaxLogString, func(v, l int64) verdict {
		switch {
		case v < 0 || v > pduwire.MaxLogString:
			return bad(pduwire.ErrCount, 84)
		case v > l-93:
			return bad(pduwire.ErrTruncated, 93)
		case l-93-v > 3:
			return bad(pduwire.ErrTrailing, int(93+v))
		}
		return ok()
	}})

	// docs/pcp-pdu.md §4.5 RESULT numpmid, on the capture with INSITU values only.
	res := capturePDU(t, pduwire.TypeResult, func(b []byte) bool { return be32At(b, 20) >= 1 && insituOnly(b, 24) })
	cs = append(cs, resultNumpmid("RESULT numpmid (capture)", res, 20, 24))
	hres := capturePDU(t, pduwire.TypeHighResResult, func(b []byte) bool { return be32At(b, 12) >= 2 && insituOnly(b, 32) })
	cs = append(cs, resultNumpmid("HIGHRES_RESULT numpmid (capture)", hres, 12, 32))

	// docs/pcp-pdu.md §4.7 numval of a one-metric RESULT with one INSITU value (len 44):
	// ≤ 0 leaves the pair over, > len is a bad count, else the list
	// runs past the PDU.
	r1 := result(1, pmid, 1, 0, m1, 10)
	cs = append(cs, countCase{"RESULT numval", r1, 28, 1, func(v, l int64) verdict {
		switch {
		case v <= 0:
			return bad(pduwire.ErrTrailing, 32)
		case v > l:
			return bad(pduwire.ErrCount, 28)
		case v > 1:
			return bad(pduwire.ErrTruncated, 24)
		}
		return ok()
	}})

	// docs/pcp-events.md §6.2 inside a RESULT: one record without parameters
	// (array at 44, ea_len 24; nrecords at 48, nparams at 64). Bytes left
	// in the array after the last record are not an error (rule 9).
	ev := eventResult(0x09000018, 1, 0, 0, 0, 0)
	cs = append(cs, countCase{"EVENT nrecords", ev, 48, 1, func(v, l int64) verdict {
		if v < 0 || v > (24-8)/16 {
			return bad(pduwire.ErrEvent, -1)
		}
		return ok()
	}})
	cs = append(cs, countCase{"EVENT nparams", ev, 64, 0, func(v, l int64) verdict {
		if v != 0 { // negative, or parameters past the array
			return bad(pduwire.ErrEvent, -1)
		}
		return ok()
	}})
	return cs
}

// insituOnly reports whether every value set of the RESULT whose records
// start at off is INSITU or empty, so a count change cannot turn a
// record into a block reference.
func insituOnly(b []byte, off int) bool {
	n := be32At(b, off-4)
	if off == 32 {
		n = be32At(b, 12)
	}
	for range n {
		nv := be32At(b, off+4)
		if nv <= 0 {
			off += 8
			continue
		}
		if u32At(b, off+8) != 0 {
			return false
		}
		off += 12 + 8*int(nv)
	}
	return off == len(b)
}

// resultNumpmid is the rule for numpmid of an INSITU-only RESULT with
// records from recOff: 0 ≤ numpmid ≤ len (docs/pcp-pdu.md §4.5); fewer sets leave
// records over (§4.8 rule 5: without pointers len ends the records),
// more run past the PDU.
func resultNumpmid(name string, base []byte, off, recOff int) countCase {
	orig := be32At(base, off)
	return countCase{name, base, off, orig, func(v, l int64) verdict {
		switch {
		case v < 0 || v > l:
			return bad(pduwire.ErrCount, off)
		case v < orig:
			return bad(pduwire.ErrTrailing, -1)
		case v > orig:
			return bad(pduwire.ErrTruncated, int(l))
		}
		return ok()
	}}
}

// TestEveryCount forges each count of countCases at the docs/pcp-pdu.md §8.2 values.
func TestEveryCount(t *testing.T) {
	for _, c := range countCases(t) {
		l := int64(len(c.base))
		orig := be32At(c.base, c.off)
		if got := c.want(orig, l); got.kind != nil {
			t.Fatalf("%s: the rule rejects the base PDU (%v)", c.name, got.kind)
		}
		seen := map[int64]bool{}
		for _, v := range forged(orig, c.max, l) {
			if seen[v] {
				continue
			}
			seen[v] = true
			t.Run(c.name+"="+strconv.FormatInt(v, 10), func(t *testing.T) {
				pdu := bytes.Clone(c.base)
				wire.PutU32BE(pdu, c.off, uint32(v))
				checkVerdict(t, pdu, c.want(v, l))
				checkAllocBound(t, pdu)
			})
		}
	}
}

// checkVerdict decodes pdu and compares the answer with w.
func checkVerdict(t *testing.T, pdu []byte, w verdict) {
	t.Helper()
	if isResult(pdu) {
		checkReader(t, pdu)
	}
	_, err := pduwire.Decode(pdu)
	if w.kind == nil {
		if err != nil {
			t.Fatalf("want success, got %v", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("accepted, want %v", w.kind)
	}
	pe, isPE := errors.AsType[*pduwire.ParseError](err)
	if !isPE {
		t.Fatalf("%v is not a *ParseError", err)
	}
	if w.kind == errReject {
		for _, s := range sentinels {
			if errors.Is(err, s) {
				return
			}
		}
		t.Fatalf("%v is not one of pduwire's kinds", err)
	}
	if !errors.Is(err, w.kind) {
		t.Fatalf("got %v, want %v", err, w.kind)
	}
	if w.off >= 0 && pe.Offset != int64(w.off) {
		t.Errorf("offset %d, want %d (%v)", pe.Offset, w.off, err)
	}
}

// checkAllocBound fails if decoding pdu allocates more than a small
// constant plus a few bytes per PDU byte: a decoder that sized anything
// from a forged count (up to 2^31) would exceed it by orders of magnitude.
func checkAllocBound(t *testing.T, pdu []byte) {
	t.Helper()
	const runs = 8
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		pduwire.Decode(pdu)
	}
	runtime.ReadMemStats(&after)
	per := (after.TotalAlloc - before.TotalAlloc) / runs
	if limit := uint64(1024 + 16*len(pdu)); per > limit {
		t.Errorf("decode allocates %d bytes for a %d-byte PDU (limit %d)", per, len(pdu), limit)
	}
}

// TestResultVlenSmall names the docs/pcp-pdu.md §8.2 item "vlen 0–3": a value block whose
// vlen cannot even hold its own header word is a bad block, whatever its
// type, in RESULT and HIGHRES_RESULT alike; 4 (an empty AGGREGATE) is the
// smallest legal block.
func TestResultVlenSmall(t *testing.T) {
	const pmid = 0x07400005
	highRes := func(words ...uint32) []byte {
		return mk(pduwire.TypeHighResResult, append([]uint32{1, 0, 0, 0, 0}, words...)...)
	}
	tests := []struct {
		name string
		pdu  []byte
		want error
		off  int
	}{
		{"result vlen 0", result(1, pmid, 1, 1, m1, 11, 0x07000000), pduwire.ErrValueBlock, 44},
		{"result vlen 1", result(1, pmid, 1, 1, m1, 11, 0x07000001), pduwire.ErrValueBlock, 44},
		{"result vlen 2", result(1, pmid, 1, 1, m1, 11, 0x06000002), pduwire.ErrValueBlock, 44},
		{"result vlen 3", result(1, pmid, 1, 1, m1, 11, 0x06000003), pduwire.ErrValueBlock, 44},
		{"result vlen 0 on a 64-bit block", result(1, pmid, 1, 1, m1, 11, 0x02000000, 0, 0), pduwire.ErrValueBlock, 44},
		{"result vlen 2 with payload bytes after", result(1, pmid, 1, 1, m1, 11, 0x07000002, 0), pduwire.ErrValueBlock, 44},
		{"highres vlen 0", highRes(pmid, 1, 1, m1, 13, 0x07000000), pduwire.ErrValueBlock, 52},
		{"highres vlen 1", highRes(pmid, 1, 1, m1, 13, 0x06000001), pduwire.ErrValueBlock, 52},
		{"highres vlen 2", highRes(pmid, 1, 1, m1, 13, 0x07000002), pduwire.ErrValueBlock, 52},
		{"result vlen 4 empty aggregate", result(1, pmid, 1, 1, m1, 11, 0x07000004), nil, -1},
		{"result vlen 4 string without NUL", result(1, pmid, 1, 1, m1, 11, 0x06000004), nil, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkVerdict(t, tc.pdu, verdict{tc.want, tc.off})
			if _, err := pduwire.ParseResult(tc.pdu); !errors.Is(err, tc.want) && (err != nil || tc.want != nil) {
				t.Errorf("ParseResult: %v, want %v", err, tc.want)
			}
		})
	}
}
