package diff

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"strconv"

	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/labels"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// Ours returns perfwire's canonical text for b, in the format oracle.c
// writes for libpcp, and false when the input is of a PDU type the
// oracle does not decode (no comparison is possible).
func Ours(kind int, b []byte) (string, bool) {
	if kind == kindLabels {
		// libpcp 6.0.3 names: a leading letter (Classic). Only texts
		// perfwire accepts inside the safe subset of docs/pcp-labels.md §6
		// are compared: outside it libpcp's answers are known to be
		// wrong (truncated JSON accepted, nested names lost, ...).
		var s labels.Set
		if err := labels.Parse(&s, b, labels.Options{Names: labels.Classic, KeepOrder: true}); err != nil || !safeLabels(b) || prefixNames(&s) {
			return "", false
		}
		return "P " + strconv.Itoa(s.Len()) + "\n", true
	}
	h, _, err := pduwire.ConsumeHeader(b)
	if err != nil || int(h.Len) != len(b) {
		return rejected, true
	}
	var t text
	switch h.Type {
	case pduwire.TypeResult, pduwire.TypeHighResResult:
		r, err := pduwire.ParseResult(b)
		if err != nil {
			return rejected, true
		}
		t.result(&r)
	case pduwire.TypeError:
		var e pduwire.ErrorPDU
		if e.UnmarshalBinary(b) != nil {
			return rejected, true
		}
		// The 20-byte form is the handshake, whose status travels in PCP
		// 1.x numbering: __pmDecodeXtendError translates it (as
		// pduwire.ParseServerHello does), ErrorPDU keeps the wire word.
		if e.Extended {
			t.put("E ", strconv.Itoa(int(pcp.FromV1(e.Code))), " ", hex32(e.Datum), "\n")
		} else {
			t.put("E ", strconv.Itoa(int(e.Code)), "\n")
		}
	case pduwire.TypeDesc:
		var d pduwire.DescPDU
		if d.UnmarshalBinary(b) != nil {
			return rejected, true
		}
		t.desc(d.Desc)
	case pduwire.TypeText:
		var x pduwire.TextPDU
		if x.UnmarshalBinary(b) != nil {
			return rejected, true
		}
		// libpcp returns the text as a C string: it ends at a NUL.
		txt := x.Text
		if i := bytes.IndexByte(txt, 0); i >= 0 {
			txt = txt[:i]
		}
		t.put("T ", hex32(x.Ident), " ", hex.EncodeToString(txt), "\n")
	case pduwire.TypeLabel:
		var l pduwire.LabelPDU
		if l.UnmarshalBinary(b) != nil {
			return rejected, true
		}
		t.put("L ", hex32(l.Ident), " ", strconv.Itoa(int(l.Kind)), " ", strconv.Itoa(len(l.Sets)), "\n")
		// A JSON span may start inside the PDU header (docs/pcp-pdu.md §4.15
		// asks only json ≥ 0). libpcp reads it from its buffer, whose
		// header words __pmGetPDU has already put in host order;
		// perfwire returns the bytes that were sent. Print what libpcp
		// holds, so the comparison stays exact.
		held := heldPDU(b)
		rec := 28
		for _, s := range l.Sets {
			json := s.JSON
			if json != nil {
				at := int(binary.BigEndian.Uint32(b[rec+8:]))
				json = held[at : at+len(json)]
			}
			rec += 16 + 8*len(s.Labels)
			t.put("l ", strconv.Itoa(int(s.Inst)), " ", strconv.Itoa(int(s.NLabels)), " ", hex.EncodeToString(json), "\n")
			for _, e := range s.Labels {
				t.put("e ", u(uint64(e.Name)), " ", u(uint64(e.NameLen)), " ", u(uint64(e.Flags)), " ", u(uint64(e.Value)), " ", u(uint64(e.ValueLen)), "\n")
			}
		}
	case pduwire.TypeDescReq:
		var q pduwire.DescReqPDU
		if q.UnmarshalBinary(b) != nil {
			return rejected, true
		}
		t.put("Q ", hex32(uint32(q.PMID)), "\n")
	case pduwire.TypeTextReq:
		var q pduwire.TextReqPDU
		if q.UnmarshalBinary(b) != nil {
			return rejected, true
		}
		// Neither PM_TEXT_PMID nor PM_TEXT_INDOM: libpcp reports the
		// ident as PM_INDOM_NULL (docs/pcp-pdu.md §4.12).
		t.request(q.Ident, q.Kind, 0xc)
	case pduwire.TypeLabelReq:
		var q pduwire.LabelReqPDU
		if q.UnmarshalBinary(b) != nil {
			return rejected, true
		}
		// libpcp replaces an ident that no requested level uses
		// (domain, indom, cluster, item, instances) by PM_ID_NULL.
		t.request(q.Ident, q.Kind, 0x3e)
	case pduwire.TypeInstance:
		var in pduwire.InstancePDU
		if in.UnmarshalBinary(b) != nil {
			return rejected, true
		}
		t.put("N ", hex32(uint32(in.InDom)), " ", strconv.Itoa(len(in.Instances)), "\n")
		for _, e := range in.Instances {
			// libpcp's names are C strings; an empty one may be NULL.
			name := e.Name
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			t.put("n ", strconv.Itoa(int(e.Inst)), " ")
			if len(name) == 0 {
				t.put("-\n")
			} else {
				t.put(hex.EncodeToString(name), "\n")
			}
		}
	case pduwire.TypeFetch, pduwire.TypeHighResFetch:
		var q pduwire.FetchPDU
		if q.UnmarshalBinary(b) != nil {
			return rejected, true
		}
		t.put("F ", strconv.Itoa(int(q.Ctx)), " ", strconv.Itoa(len(q.PMIDs)), "\n")
		for _, id := range q.PMIDs {
			t.put("f ", hex32(uint32(id)), "\n")
		}
	case pduwire.TypePMNSNames:
		var q pduwire.PMNSNamesPDU
		if q.UnmarshalBinary(b) != nil {
			return rejected, true
		}
		if q.Status < 0 {
			return rejected, true // libpcp returns the peer's error code
		}
		withStatus := "0"
		if q.Statuses != nil {
			withStatus = "1"
		}
		t.put("M ", strconv.Itoa(len(q.Names)), " ", withStatus, "\n")
		for i, name := range q.Names {
			st := int32(0)
			if q.Statuses != nil {
				st = q.Statuses[i]
			}
			if j := bytes.IndexByte(name, 0); j >= 0 {
				name = name[:j]
			}
			t.put("m ", strconv.Itoa(int(st)), " ", hex.EncodeToString(name), "\n")
		}
	case pduwire.TypeCreds:
		var q pduwire.CredsPDU
		if q.UnmarshalBinary(b) != nil {
			return rejected, true
		}
		t.put("C ", strconv.Itoa(len(q.Creds)), "\n")
		for _, c := range q.Creds {
			t.put("c ", hex32(uint32(c)), "\n")
		}
	default:
		if !t.more(h.Type, b) {
			return rejected, true
		}
		if t.b == nil {
			return "", false
		}
	}
	return string(t.b), true
}

// safeLabels reports whether text is inside the subset libpcp parses
// correctly: no arrays, at most one level of map nesting, and no name
// that is also a prefix of a dotted one (checked by the caller's parse).
func safeLabels(text []byte) bool {
	depth, maxDepth, inString := 0, 0, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[':
			return false
		case c == '{':
			depth++
			maxDepth = max(maxDepth, depth)
		case c == '}':
			depth--
		}
	}
	return maxDepth <= 2 && len(text) < 65535
}

// prefixNames reports whether a label's name is a textual prefix of a
// nested label's name: the map prefix of another label (docs/pcp-labels.md §6
// #5, outside the safe subset) or just the start of one, as "A" is of
// "A0.A" (libpcp 6.0.3 rejects {"A":0,"A0":{"A":true}}; rule D11 in
// fuzz/RESULTS.md). The index is sorted, so such pairs are adjacent after
// skipping siblings.
func prefixNames(s *labels.Set) bool {
	for i := range s.Len() {
		name := s.At(i).Name
		for j := i + 1; j < s.Len(); j++ {
			other := s.At(j).Name
			if !bytes.HasPrefix(other, name) {
				break
			}
			if len(other) > len(name) && bytes.IndexByte(other[len(name):], '.') >= 0 {
				return true
			}
		}
	}
	return false
}

// text accumulates canonical text.
type text struct {
	b []byte
	u eventrec.Unpacker
}

func (t *text) put(s ...string) {
	for _, x := range s {
		t.b = append(t.b, x...)
	}
}

func hex32(v uint32) string {
	s := strconv.FormatUint(uint64(v), 16)
	for len(s) < 8 {
		s = "0" + s
	}
	return s
}

func u(v uint64) string { return strconv.FormatUint(v, 10) }

// request writes a text or label request: its ident, or the null ident
// (all ones) when kind has none of the bits in uses, as libpcp reports
// it, then kind.
func (t *text) request(ident uint32, kind int32, uses int32) {
	if kind&uses == 0 {
		ident = 0xffffffff
	}
	t.put("Q ", hex32(ident), " ", strconv.Itoa(int(kind)), "\n")
}

func (t *text) desc(d pduwire.Desc) {
	t.put("D ", hex32(uint32(d.ID)), " ", strconv.Itoa(int(d.Type)), " ", hex32(uint32(d.InDom)),
		" ", strconv.Itoa(int(d.Sem)), " ", hex32(uint32(d.Units)), "\n")
}

// result writes a RESULT: libpcp keeps nanoseconds in 32 bits, so a
// RESULT's tv_usec × 1000 wraps there too.
func (t *text) result(r *pduwire.Result) {
	t.put("R ", strconv.FormatInt(r.Sec, 10), " ", strconv.Itoa(int(int32(r.Nsec))), " ", strconv.Itoa(r.NumPMID), "\n")
	s := r.Scan()
	for s.Next() {
		vs := s.ValueSet()
		valfmt := 0
		if vs.NumVal > 0 {
			valfmt = int(vs.ValFmt)
		}
		t.put("S ", hex32(uint32(vs.PMID)), " ", strconv.Itoa(int(vs.NumVal)), " ", strconv.Itoa(valfmt), "\n")
		for i := range vs.Len() {
			v := vs.Value(i)
			if !v.Block() {
				t.put("I ", strconv.Itoa(int(v.Inst)), " ", hex32(v.Word), "\n")
				continue
			}
			t.put("B ", strconv.Itoa(int(v.Inst)))
			if v.BlockType() == pcp.TypeEvent || v.BlockType() == pcp.TypeHighResEvent {
				t.put(" ", strconv.Itoa(int(v.BlockType())), " ", strconv.Itoa(len(v.Payload())+4), "\n")
				t.events(uint32(vs.ValFmt), v)
				continue
			}
			t.block(v.BlockType(), v.Payload())
			t.put("\n")
		}
	}
}

// heldPDU returns a copy of the PDU b as libpcp's decoders see it: len,
// type and from in host order (little-endian here), the rest as sent.
func heldPDU(b []byte) []byte {
	h := bytes.Clone(b)
	for i := 0; i < 12; i += 4 {
		binary.LittleEndian.PutUint32(h[i:], binary.BigEndian.Uint32(b[i:]))
	}
	return h
}

// block writes a value block's contents as oracle.c's putblock does.
func (t *text) block(typ pcp.Type, p []byte) {
	t.put(" ", strconv.Itoa(int(typ)), " ", strconv.Itoa(len(p)+4), " ")
	switch {
	case (typ == pcp.Type32 || typ == pcp.TypeU32) && len(p) == 4:
		// libpcp 6.0.3 converts FLOAT, 64-bit and DOUBLE blocks to host
		// order but leaves a 32-bit block (which pmcd never sends: those
		// values travel in place) in network order, so on this
		// little-endian host its number is the byte-swapped one.
		t.put("n", hex32(binary.LittleEndian.Uint32(p)))
	case typ == pcp.TypeFloat && len(p) == 4:
		t.put("n", hex32(binary.BigEndian.Uint32(p)))
	case (typ == pcp.Type64 || typ == pcp.TypeU64 || typ == pcp.TypeDouble) && len(p) == 8:
		v := binary.BigEndian.Uint64(p)
		t.put("n", hex32(uint32(v>>32)), hex32(uint32(v)))
	default:
		t.put("x", hex.EncodeToString(p))
	}
}

// events writes the unpacked records of an event array value, as
// pmUnpackEventRecords / pmUnpackHighResEventRecords produce them.
func (t *text) events(valfmt uint32, v pduwire.Value) {
	blk := binary.BigEndian.AppendUint32(nil, uint32(v.BlockType())<<24|uint32(len(v.Payload())+4))
	blk = append(blk, v.Payload()...)
	a, err := eventrec.ParseValue(valfmt, blk, eventrec.Options{Type: v.BlockType(), Lenient: true})
	if err != nil {
		t.put("U ERR\n")
		return
	}
	rs := t.u.Unpack(a)
	t.put("U ", strconv.Itoa(len(rs)), "\n")
	for _, r := range rs {
		t.put("u ", strconv.FormatInt(r.Sec, 10), " ", strconv.FormatInt(r.Nsec, 10), " ", strconv.Itoa(len(r.Values)), "\n")
		for _, x := range r.Values {
			if x.InsituFmt {
				t.put("S ", hex32(uint32(x.ID)), " 1 0\nI -1 ", hex32(x.Insitu), "\n")
				continue
			}
			t.put("S ", hex32(uint32(x.ID)), " 1 1\nB -1")
			t.block(x.Type, x.Block)
			t.put("\n")
		}
	}
}
