package diff

import (
	"bytes"
	"encoding/hex"
	"strconv"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// more writes the canonical text of the PDU types added after the first
// fourteen (INSTANCE_REQ, DESCS, DESC_IDS, PMNS_IDS, PMNS_CHILD,
// PMNS_TRAVERSE, ATTR, PROFILE and the LOG_* PDUs), as oracle.c does for libpcp. It returns
// false when perfwire rejects b, and leaves t empty for a type the
// oracle does not decode.
func (t *text) more(typ pduwire.Type, b []byte) bool {
	switch typ {
	case pduwire.TypeInstanceReq:
		var q pduwire.InstanceReqPDU
		if q.UnmarshalBinary(b) != nil {
			return false
		}
		// libpcp's name is a C string; none (or empty) may be NULL.
		t.put("Y ", hex32(uint32(q.InDom)), " ", strconv.Itoa(int(q.Inst)), " ")
		name := q.Name
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		if len(name) == 0 {
			t.put("-\n")
		} else {
			t.put(hex.EncodeToString(name), "\n")
		}
	case pduwire.TypeDescs:
		var q pduwire.DescsPDU
		if q.UnmarshalBinary(b) != nil {
			return false
		}
		t.put("X ", strconv.Itoa(len(q.Descs)), "\n")
		for _, d := range q.Descs {
			t.desc(d)
		}
	case pduwire.TypeDescIDs:
		var q pduwire.DescIDsPDU
		if q.UnmarshalBinary(b) != nil {
			return false
		}
		t.ids(-1, q.PMIDs)
	case pduwire.TypePMNSIDs:
		var q pduwire.PMNSIDsPDU
		if q.UnmarshalBinary(b) != nil {
			return false
		}
		t.ids(q.Status, q.PMIDs)
	case pduwire.TypePMNSChild, pduwire.TypePMNSTraverse:
		var q pduwire.PMNSChildPDU
		if q.UnmarshalBinary(b) != nil {
			return false
		}
		// libpcp hands the name back as a C string and the subtype of
		// PMNS_CHILD only.
		if q.Traverse {
			t.put("K - ")
		} else {
			t.put("K ", strconv.Itoa(int(q.Subtype)), " ")
		}
		t.cstr(q.Name)
		t.put("\n")
	case pduwire.TypeAttr:
		var q pduwire.AttrPDU
		if q.UnmarshalBinary(b) != nil {
			return false
		}
		t.put("A ", strconv.Itoa(int(q.Attr)), " ", strconv.Itoa(len(q.Value)), " ", hex.EncodeToString(q.Value), "\n")
	case pduwire.TypeProfile:
		var q pduwire.ProfilePDU
		if q.UnmarshalBinary(b) != nil {
			return false
		}
		t.put("P ", strconv.Itoa(int(q.Ctx)), " ", strconv.Itoa(int(q.State)), " ", strconv.Itoa(len(q.Entries)), "\n")
		for _, e := range q.Entries {
			t.put("p ", hex32(uint32(e.InDom)), " ", strconv.Itoa(int(e.State)), " ", strconv.Itoa(len(e.Insts)), "\n")
			for _, in := range e.Insts {
				t.put("i ", strconv.Itoa(int(in)), "\n")
			}
		}
	case pduwire.TypeLogRequest:
		var q pduwire.LogRequestPDU
		if q.UnmarshalBinary(b) != nil {
			return false
		}
		t.put("G ", strconv.Itoa(int(q.Request)), "\n")
	case pduwire.TypeLogControl:
		var q pduwire.LogControlPDU
		if q.UnmarshalBinary(b) != nil {
			return false
		}
		t.put("O ", strconv.Itoa(int(q.Control)), " ", strconv.Itoa(int(q.State)), " ", strconv.Itoa(int(q.Delta)), " ", strconv.Itoa(len(q.Metrics)), "\n")
		for _, m := range q.Metrics {
			t.put("S ", hex32(uint32(m.PMID)), " ", strconv.Itoa(int(m.NumVal)), "\n")
			for _, v := range m.Values {
				t.put("I ", strconv.Itoa(int(v.Inst)), " ", hex32(v.Value), "\n")
			}
		}
	case pduwire.TypeLogStatusV2:
		var q pduwire.LogStatusV2PDU
		if q.UnmarshalBinary(b) != nil {
			return false
		}
		// libpcp widens the microseconds to nanoseconds in 32 bits.
		q.Start.Frac *= 1000
		q.Last.Frac *= 1000
		q.Now.Frac *= 1000
		t.logStatus(q.Start, q.Last, q.Now, q.State, q.Vol, q.Size, [6][]byte{q.Host[:], q.FQDN[:], q.PMCDTZ[:], nil, q.LoggerTZ[:], nil})
	case pduwire.TypeLogStatus:
		var q pduwire.LogStatusPDU
		if q.UnmarshalBinary(b) != nil {
			return false
		}
		t.logStatus(q.Start, q.Last, q.Now, q.State, q.Vol, q.Size, q.Strings)
	}
	return true
}

func (t *text) ids(sts int32, ids []pcp.ID) {
	t.put("J ", strconv.Itoa(int(sts)), " ", strconv.Itoa(len(ids)), "\n")
	for _, id := range ids {
		t.put("f ", hex32(uint32(id)), "\n")
	}
}

// cstr writes a name as libpcp's C string: up to its first NUL.
func (t *text) cstr(s []byte) {
	if i := bytes.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	t.put("=", hex.EncodeToString(s))
}

// logStatus writes a pmlogger status; a string of length 0 is libpcp's
// NULL ("-").
func (t *text) logStatus(start, last, now pduwire.LogTime, state, vol int32, size int64, strs [6][]byte) {
	t.put("Z")
	for _, lt := range []pduwire.LogTime{start, last, now} {
		t.put(" ", strconv.FormatInt(lt.Sec, 10), " ", strconv.Itoa(int(lt.Frac)))
	}
	t.put(" ", strconv.Itoa(int(state)), " ", strconv.Itoa(int(vol)), " ", strconv.FormatInt(size, 10))
	for _, s := range strs {
		t.put(" ")
		if len(s) == 0 {
			t.put("-")
			continue
		}
		t.cstr(s)
	}
	t.put("\n")
}
