package abi

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/tinylib/msgp/msgp"
)

// DecodePDUs frames a PCP byte stream into PDUs (PDUs up to limit bytes;
// 0 means pduwire's default client limit) and decodes each one in full.
// The first framing or body error ends the stream; what came before it
// is kept.
func DecodePDUs(in []byte, limit int) PDUStream {
	return pduStream(AppendPDUs(nil, in, limit))
}

// AppendPDU appends to dst the MessagePack map of framed PDU p: its
// header (with file, when not empty) and its decoded body. A body that
// does not decode as its type says returns the *wire.Error with its
// offset counted from the stream's start and its field prefixed by the
// PDU's type and offset.
func AppendPDU(dst []byte, file string, p pduwire.PDU) ([]byte, error) {
	if t := p.Header.Type; t == pduwire.TypeResult || t == pduwire.TypeHighResResult {
		// Most of a stream: written in one pass, with no body value.
		r, err := pduwire.ParseResult(p.Bytes)
		if err != nil {
			return dst, pduError(p, err)
		}
		h := PDUHeader{File: file, Offset: p.Offset, Len: p.Header.Len, Type: t.String(), From: p.Header.From}
		return appendResult(dst, &h, &r), nil
	}
	body, err := decodeBody(p.Header.Type, p.Bytes)
	if err != nil {
		return dst, pduError(p, err)
	}
	h := PDUHeader{File: file, Offset: p.Offset, Len: p.Header.Len, Type: p.Header.Type.String(), From: p.Header.From}
	return appendMerged(dst, &h, body)
}

// pduError places a body's decoding error in the stream: its offset
// counted from the stream's start, its field prefixed by the PDU's type
// and offset.
func pduError(p pduwire.PDU, err error) error {
	if pe, ok := errors.AsType[*wire.Error](err); ok {
		abs := *pe
		abs.Offset += p.Offset
		abs.Field = p.Header.Type.String() + " PDU at offset " + strconv.FormatInt(p.Offset, 10) + ": " + pe.Field
		err = &abs
	}
	return err
}

// appendMerged appends one map holding a's keys then b's. Both are
// written in place after dst; when the two counts fit a fixmap, as every
// PDU header and body does, b's header is dropped and a's counts both,
// with no buffer of their own.
func appendMerged(dst []byte, a, b msgp.Marshaler) ([]byte, error) {
	at := len(dst)
	out, err := a.MarshalMsg(dst)
	if err != nil {
		return dst, err
	}
	bt := len(out)
	if out, err = b.MarshalMsg(out); err != nil {
		return dst, err
	}
	if ha, hb := out[at], out[bt]; ha&0xf0 == 0x80 && hb&0xf0 == 0x80 && ha&0x0f+hb&0x0f <= 15 {
		out[at] = ha + hb&0x0f
		return append(out[:bt], out[bt+1:]...), nil
	}
	na, ra, err := msgp.ReadMapHeaderBytes(out[at:bt])
	if err != nil {
		return dst, err
	}
	nb, rb, err := msgp.ReadMapHeaderBytes(out[bt:])
	if err != nil {
		return dst, err
	}
	m := msgp.AppendMapHeader(nil, na+nb)
	m = append(append(m, ra...), rb...)
	return append(out[:at], m...), nil
}

// decodeBody decodes whole PDU b of type t into its schema body, with
// pduwire's errors. It switches on concrete types rather than going
// through pduwire.New: a value in the pduwire.Message interface keeps
// every String method its fields' types have, which linked about 40 KB
// of pcp's text formatting into each module (bench/RESULTS.md); an
// interface of UnmarshalBinary alone, called once, still cost 9 KB more
// than it saved (issue 18). For size in WebAssembly, where every call
// and every return costs, the cases break to one return, and lists are
// made at their length and filled by index (a local copy of the source
// slice lets the compiler drop the bounds checks), with no append.
func decodeBody(t pduwire.Type, b []byte) (msgp.Marshaler, error) {
	var body msgp.Marshaler
	var err error
	switch t {
	case pduwire.TypeError:
		var m pduwire.ErrorPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		if !m.Extended {
			body = &ErrorBody{Code: m.Code}
			break
		}
		f := pduwire.Features(m.Datum)
		body = &ErrorExtBody{Code: m.Code, Datum: hex32(m.Datum), HandshakeStatus: int32(pcp.FromV1(m.Code)),
			Version: f.Version(), Features: hex32(uint32(f.Flags()))}
	case pduwire.TypeResult, pduwire.TypeHighResResult:
		r, err1 := pduwire.ParseResult(b)
		if err = err1; err != nil {
			break
		}
		body = &resultMsg{r}
	case pduwire.TypeProfile:
		var m pduwire.ProfilePDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		in := m.Entries
		es := make([]ProfileEntry, len(in))
		for i, e := range in {
			insts := make([]int32, len(e.Insts))
			copy(insts, e.Insts)
			es[i] = ProfileEntry{InDom: e.InDom.String(), State: e.State, Insts: insts}
		}
		body = &ProfileBody{Ctx: m.Ctx, State: m.State, Entries: es}
	case pduwire.TypeFetch, pduwire.TypeHighResFetch:
		m := pduwire.FetchPDU{HighRes: t == pduwire.TypeHighResFetch}
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &FetchBody{Ctx: m.Ctx, PMIDs: ids(m.PMIDs)}
	case pduwire.TypeDescReq:
		var m pduwire.DescReqPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &PMIDBody{PMID: m.PMID.String()}
	case pduwire.TypeDesc:
		var m pduwire.DescPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &DescBody{Desc: desc(m.Desc)}
	case pduwire.TypeDescIDs:
		var m pduwire.DescIDsPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &PMIDsBody{PMIDs: ids(m.PMIDs)}
	case pduwire.TypeDescs:
		var m pduwire.DescsPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		in := m.Descs
		ds := make([]Desc, len(in))
		for i, d := range in {
			ds[i] = desc(d)
		}
		body = &DescsBody{Descs: ds}
	case pduwire.TypeInstanceReq:
		var m pduwire.InstanceReqPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &InstanceReqBody{InDom: m.InDom.String(), Inst: m.Inst, Name: string(m.Name)}
	case pduwire.TypeInstance:
		var m pduwire.InstancePDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		in := m.Instances
		is := make([]Instance, len(in))
		for i, e := range in {
			is[i] = Instance{Inst: e.Inst, Name: string(e.Name)}
		}
		body = &InstanceBody{InDom: m.InDom.String(), Instances: is}
	case pduwire.TypeTextReq, pduwire.TypeLabelReq:
		// The two requests have the same fields: one body for both.
		var m pduwire.TextReqPDU
		if t == pduwire.TypeTextReq {
			err = m.UnmarshalBinary(b)
		} else {
			err = (*pduwire.LabelReqPDU)(&m).UnmarshalBinary(b)
		}
		if err != nil {
			break
		}
		body = &IdentKindBody{Ident: hex32(m.Ident), Kind: m.Kind}
	case pduwire.TypeText:
		var m pduwire.TextPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &TextBody{Ident: hex32(m.Ident), Text: string(m.Text)}
	case pduwire.TypeCreds:
		var m pduwire.CredsPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		in := m.Creds
		cs := make([]Cred, len(in))
		for i, c := range in {
			cs[i] = Cred{Type: c.Kind(), Version: c.Version(), Flags: hex32(uint32(c.Flags()))}
		}
		body = &CredsBody{Creds: cs}
	case pduwire.TypePMNSIDs:
		var m pduwire.PMNSIDsPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &PMNSIDsBody{Status: m.Status, PMIDs: ids(m.PMIDs)}
	case pduwire.TypePMNSNames:
		var m pduwire.PMNSNamesPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		in := m.Names
		ns := make([]string, len(in))
		for i, n := range in {
			ns[i] = string(n)
		}
		var sts []int32
		if m.Statuses != nil {
			sts = make([]int32, len(m.Statuses))
			copy(sts, m.Statuses)
		}
		body = &PMNSNamesBody{Status: m.Status, Names: ns, Statuses: sts}
	case pduwire.TypePMNSChild, pduwire.TypePMNSTraverse:
		m := pduwire.PMNSChildPDU{Traverse: t == pduwire.TypePMNSTraverse}
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &PMNSChildBody{Subtype: m.Subtype, Name: string(m.Name)}
	case pduwire.TypeAttr:
		var m pduwire.AttrPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &AttrBody{Attr: m.Attr, Value: string(m.Value)}
	case pduwire.TypeLabel:
		var m pduwire.LabelPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		in := m.Sets
		sets := make([]PDULabelSet, len(in))
		for i, s := range in {
			lin := s.Labels
			ls := make([]Label, len(lin))
			for j, l := range lin {
				ls[j] = Label{Name: string(s.JSON[l.Name : int(l.Name)+int(l.NameLen)]),
					Value: string(s.JSON[l.Value : int(l.Value)+int(l.ValueLen)]), Flags: l.Flags,
					NameOff: l.Name, NameLen: l.NameLen, ValueOff: l.Value, ValueLen: l.ValueLen}
			}
			sets[i] = PDULabelSet{Inst: s.Inst, NLabels: s.NLabels, JSON: string(s.JSON), Labels: ls}
		}
		body = &LabelBody{Ident: hex32(m.Ident), Kind: m.Kind, Sets: sets}
	case pduwire.TypeLogRequest:
		var m pduwire.LogRequestPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &LogRequestBody{Request: m.Request}
	case pduwire.TypeLogControl:
		var m pduwire.LogControlPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		in := m.Metrics
		ms := make([]LogMetric, len(in))
		for i, lm := range in {
			vin := lm.Values
			vs := make([]LogValue, len(vin))
			for j, v := range vin {
				vs[j] = LogValue{Inst: v.Inst, Value: v.Value}
			}
			ms[i] = LogMetric{PMID: lm.PMID.String(), NumVal: lm.NumVal, Values: vs}
		}
		body = &LogControlBody{Control: m.Control, State: m.State, DeltaMS: m.Delta, Metrics: ms}
	case pduwire.TypeLogStatusV2:
		var m pduwire.LogStatusV2PDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &LogStatusV2Body{Start: logTime(m.Start), Last: logTime(m.Last), Now: logTime(m.Now),
			State: m.State, Vol: m.Vol, Size: m.Size, Host: cstr(m.Host[:]), FQDN: cstr(m.FQDN[:]),
			PMCDTZ: cstr(m.PMCDTZ[:]), LoggerTZ: cstr(m.LoggerTZ[:])}
	case pduwire.TypeLogStatus:
		var m pduwire.LogStatusPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		ss := make([]string, len(m.Strings))
		for i := range ss {
			ss[i] = cstr(m.Strings[i])
		}
		body = &LogStatusBody{Start: logTime(m.Start), Last: logTime(m.Last), Now: logTime(m.Now),
			State: m.State, Vol: m.Vol, Size: m.Size, Strings: ss}
	default:
		body = &UnknownBody{BodyHex: hexText(b[min(len(b), pduwire.HeaderLen):])}
	}
	return body, err
}

// appendResult appends the map of a validated RESULT or HIGHRES_RESULT:
// h's keys (none when h is nil) then ResultBody's, the bytes ResultBody's
// MarshalMsg merged with h's gives, written straight from pduwire's view
// of the PDU without building the body first (a string per PMID and an
// allocation per value: most of a RESULT stream's time in the wasm
// modules went to the allocator, issue 18 item 7).
func appendResult(dst []byte, h *PDUHeader, r *pduwire.Result) []byte {
	e := beginMap(dst, 4)
	if h != nil {
		// h's own MarshalMsg writes a fixmap (at most 5 keys), which
		// ResultBody's 4 keys extend: end counts them together.
		e.b, _ = h.MarshalMsg(dst)
		e.n = uint32(e.b[e.at] & 0x0f)
	}
	e.int("\xa3sec", r.Sec)
	e.int("\xa4nsec", r.Nsec)
	e.int("\xa7numpmid", int64(r.NumPMID))
	e.array("\xaavalue_sets", r.NumPMID)
	s := r.Scan()
	for s.Next() {
		vs := s.ValueSet()
		e.b = appendValueSet(e.b, &vs)
	}
	return e.end()
}

// appendValueSet appends one value set as ValueSet's MarshalMsg does.
// It and appendBlock, which write most of a RESULT stream's bytes, store
// their keys and small numbers themselves instead of calling enc's
// methods: a call costs far more in WebAssembly than natively (issue 18
// item 7).
func appendValueSet(b []byte, vs *pduwire.ValueSet) []byte {
	n := vs.Len()
	keys := byte(0x82)
	if n > 0 {
		keys = 0x84
	}
	b = appendID(append(b, keys, 0xa4, 'p', 'm', 'i', 'd'), vs.PMID)
	b = appendInt32(append(b, 0xa6, 'n', 'u', 'm', 'v', 'a', 'l'), vs.NumVal)
	if n > 0 {
		b = appendUint64(append(b, 0xa6, 'v', 'a', 'l', 'f', 'm', 't'), uint64(vs.ValFmt))
		b = appendArrayHeader(append(b, 0xa6, 'v', 'a', 'l', 'u', 'e', 's'), uint32(n))
		if vs.ValFmt == pduwire.ValInsitu {
			// Insitu values {inst, fmt, value}, the 32-bit word as a
			// signed number: half of a RESULT stream's values, written
			// here with no call for a fixint.
			for i := range n {
				inst, w := vs.Word(i)
				b = appendInt32(append(b, 0x83, 0xa4, 'i', 'n', 's', 't'), inst)
				b = append(b, 0xa3, 'f', 'm', 't', 0xa6, 'i', 'n', 's', 'i', 't', 'u', 0xa5, 'v', 'a', 'l', 'u', 'e')
				b = appendInt32(b, int32(w))
			}
			return b
		}
		if vs.ValFmt != pduwire.ValDPTR {
			for i := range n {
				b = appendBlock(b, vs.Value(i), vs.ValFmt)
			}
			return b
		}
		// DPTR blocks, read here from the PDU: a 64-bit number, a
		// double or a string (nearly every block of a RESULT stream)
		// takes one append for its keys and no call but its number's
		// or string's; other blocks go to appendBlock.
		pdu := vs.PDU()
		for i := range n {
			inst, w := vs.Word(i)
			at := 4 * int(w)
			hdr := binary.BigEndian.Uint32(pdu[at:])
			t, p := pcp.Type(hdr>>24), pdu[at+4:at+int(hdr&0xffffff)]
			var u uint64
			if len(p) == 8 {
				u = binary.BigEndian.Uint64(p)
			}
			// Other blocks, and a double that is NaN or infinite (a
			// string in the schema), go to appendBlock.
			common := t == pcp.TypeString || len(p) == 8 && (t == pcp.Type64 || t == pcp.TypeU64 ||
				t == pcp.TypeDouble && u>>52&0x7ff != 0x7ff)
			if !common {
				b = appendBlock(b, vs.Value(i), vs.ValFmt)
				continue
			}
			b = append(appendInt32(append(b, 0x84, 0xa4, 'i', 'n', 's', 't'), inst), dptrKeys[t]...)
			switch t {
			case pcp.TypeString:
				b = appendStr(b, trimNUL(p))
			case pcp.Type64:
				b = appendInt64(b, int64(u))
			case pcp.TypeU64:
				b = appendUint64(b, u)
			default:
				// A double's bits are MessagePack's float64 already.
				b = appendBits64(b, u)
			}
		}
	}
	return b
}

// appendID appends id's text (pcp.ID.String) as a MessagePack string:
// at most 13 bytes, a fixstr.
func appendID(b []byte, id pcp.ID) []byte {
	if id == pcp.IDNull {
		return msgp.AppendString(b, "PM_ID_NULL")
	}
	at := len(b)
	b, _ = id.AppendText(append(b, 0xa0))
	b[at] = 0xa0 | byte(len(b)-at-1)
	return b
}

// fmtKeys and typeKeys are a value block's fmt and type, keys and values
// as MessagePack, appended whole instead of through four calls, which
// cost far more in WebAssembly than natively (written out: code to make
// them cost each module 2 KB; TestValueKeys checks them).
var fmtKeys = [...]string{pduwire.ValInsitu: "\xa3fmt\xa6insitu", pduwire.ValDPTR: "\xa3fmt\xa4dptr", pduwire.ValSPTR: "\xa3fmt\xa4sptr"}

var typeKeys = [...]string{
	pcp.Type32: "\xa4type\xa232", pcp.TypeU32: "\xa4type\xa3u32", pcp.Type64: "\xa4type\xa264", pcp.TypeU64: "\xa4type\xa3u64",
	pcp.TypeFloat: "\xa4type\xa5float", pcp.TypeDouble: "\xa4type\xa6double", pcp.TypeString: "\xa4type\xa6string",
	pcp.TypeAggregate: "\xa4type\xa9aggregate", pcp.TypeAggregateStatic: "\xa4type\xb0aggregate_static",
	pcp.TypeEvent: "\xa4type\xa5event", pcp.TypeHighResEvent: "\xa4type\xadhighres_event",
}

// dptrKeys are a DPTR block's fmt, type and value keys, by type, for the
// four types of nearly every block of a RESULT stream (TestValueKeys
// checks them against fmtKeys and typeKeys).
var dptrKeys = [...]string{
	pcp.Type64: "\xa3fmt\xa4dptr\xa4type\xa264\xa5value", pcp.TypeU64: "\xa3fmt\xa4dptr\xa4type\xa3u64\xa5value",
	pcp.TypeDouble: "\xa3fmt\xa4dptr\xa4type\xa6double\xa5value", pcp.TypeString: "\xa3fmt\xa4dptr\xa4type\xa6string\xa5value",
}

// appendBlock appends v, a value block of a value set of format valfmt,
// as Value's MarshalMsg does: {inst, fmt, type, then value, records or
// hex}. appendValueSet writes the common DPTR blocks itself.
func appendBlock(b []byte, v pduwire.Value, valfmt uint8) []byte {
	b = appendInt32(append(b, 0x84, 0xa4, 'i', 'n', 's', 't'), v.Inst)
	t := v.BlockType()
	if int(valfmt) < len(fmtKeys) {
		b = append(b, fmtKeys[valfmt]...)
	} else {
		b = append(b, 0xa3, 'f', 'm', 't', 0xa0)
	}
	if int(t) < len(typeKeys) && typeKeys[t] != "" {
		b = append(b, typeKeys[t]...)
	} else {
		b = msgp.AppendString(append(b, 0xa4, 't', 'y', 'p', 'e'), TypeName(t))
	}
	return appendPayload(b, t, v)
}

// trimNUL drops a string value's terminating NUL, when it has one.
func trimNUL(p []byte) []byte {
	if len(p) > 0 && p[len(p)-1] == 0 {
		return p[:len(p)-1]
	}
	return p
}

// appendPayload appends a value block's last key and its value by the
// block's type t: value, records, or hex when the payload's length is
// not its type's.
func appendPayload(b []byte, t pcp.Type, v pduwire.Value) []byte {
	p := v.Payload()
	value := func(b []byte) []byte { return append(b, 0xa5, 'v', 'a', 'l', 'u', 'e') }
	switch {
	case t == pcp.Type64 && len(p) == 8:
		return appendInt64(value(b), int64(binary.BigEndian.Uint64(p)))
	case t == pcp.TypeU64 && len(p) == 8:
		return appendUint64(value(b), binary.BigEndian.Uint64(p))
	case t == pcp.TypeDouble && len(p) == 8:
		return AppendFloat(value(b), math.Float64frombits(binary.BigEndian.Uint64(p)))
	case t == pcp.TypeFloat && len(p) == 4:
		return AppendFloat(value(b), float64(math.Float32frombits(binary.BigEndian.Uint32(p))))
	case t == pcp.TypeString:
		return appendStr(value(b), trimNUL(p))
	case t == pcp.TypeEvent || t == pcp.TypeHighResEvent:
		a, err := v.Events()
		if err != nil {
			a = eventrec.Array{} // no records
		}
		return appendEventRecords(append(b, 0xa7, 'r', 'e', 'c', 'o', 'r', 'd', 's'), a)
	}
	return msgp.AppendString(append(b, 0xa3, 'h', 'e', 'x'), hex.EncodeToString(p))
}

// resultMsg is a RESULT body for decodeBody's callers other than
// AppendPDU, which writes RESULTs itself.
type resultMsg struct{ r pduwire.Result }

// MarshalMsg appends the body's map (ResultBody's keys).
func (m *resultMsg) MarshalMsg(b []byte) ([]byte, error) { return appendResult(b, nil, &m.r), nil }

// raw returns b as a value's Raw.
func raw(b []byte) *Raw { r := Raw(b); return &r }

// AppendFloat appends f as the schema writes floats: a MessagePack float,
// or NaN and the infinities as strings, which JSON can carry.
func AppendFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return msgp.AppendString(b, strconv.FormatFloat(f, 'g', -1, 64))
	}
	return appendFloat64(b, f)
}

// eventRecords lists the records of a validated event array. The
// parameters' values share one growing buffer, each capped to its own
// bytes: an allocation per few values instead of one per value.
func eventRecords(a eventrec.Array) []EventRecord {
	recs := make([]EventRecord, 0, a.Len())
	var vals []byte
	for r := range a.Records() {
		o := EventRecord{Sec: r.Seconds(), Nsec: r.Nanoseconds(), Flags: r.Flags().String()}
		if n, ok := r.Missed(); ok {
			o.Missed = &n
		} else {
			o.Params = []EventParam{}
			for p := range r.Params() {
				at := len(vals)
				vals = appendParam(vals, p)
				o.Params = append(o.Params, EventParam{PMID: p.ID.String(), Type: TypeName(p.Type), Value: Raw(vals[at:len(vals):len(vals)])})
			}
		}
		recs = append(recs, o)
	}
	return recs
}

// appendEventRecords appends the records of a validated event array as
// eventRecords' values marshal, written straight from the array.
func appendEventRecords(b []byte, a eventrec.Array) []byte {
	b = appendArrayHeader(b, uint32(a.Len()))
	rs := a.Scanner()
	for rs.Next() {
		r := rs.Record()
		e := beginMap(b, 5)
		e.int("\xa3sec", r.Seconds())
		e.int("\xa4nsec", r.Nanoseconds())
		// Flags' text is at most 25 bytes ("point,start,end,id,parent"):
		// a fixstr.
		at := len(e.key("\xa5flags"))
		e.b, _ = r.Flags().AppendText(append(e.b, 0xa0))
		e.b[at] = 0xa0 | byte(len(e.b)-at-1)
		if n, ok := r.Missed(); ok {
			e.int("\xa6missed", int64(n))
		} else {
			e.array("\xa6params", r.NumParams())
			ps := r.ParamScanner()
			for ps.Next() {
				p := ps.Param()
				f := beginMap(e.b, 3)
				f.b = appendID(f.key("\xa4pmid"), p.ID)
				f.str("\xa4type", TypeName(p.Type))
				f.b = appendParam(f.key("\xa5value"), p)
				e.b = f.end()
			}
		}
		b = e.end()
	}
	return b
}

// appendParam appends an event parameter as a MessagePack value of its
// type.
func appendParam(b []byte, p eventrec.Param) []byte {
	switch p.Type {
	case pcp.Type32:
		v, _ := p.Int32()
		return appendInt64(b, int64(v))
	case pcp.TypeU32:
		v, _ := p.Uint32()
		return appendUint64(b, uint64(v))
	case pcp.Type64:
		v, _ := p.Int64()
		return appendInt64(b, v)
	case pcp.TypeU64:
		v, _ := p.Uint64()
		return appendUint64(b, v)
	case pcp.TypeFloat:
		v, _ := p.Float32()
		return AppendFloat(b, float64(v))
	case pcp.TypeDouble:
		v, _ := p.Float64()
		return AppendFloat(b, v)
	case pcp.TypeString:
		v, _ := p.Text()
		return appendStr(b, v)
	}
	return msgp.AppendString(b, hexText(p.Value))
}

// ids is the text of each identifier of in. It is not inlined, for the
// size of the WebAssembly modules (issue 18).
//
//go:noinline
func ids(in []pcp.ID) []string {
	out := make([]string, len(in))
	for i, id := range in {
		out[i] = id.String()
	}
	return out
}

// hexText is hex.EncodeToString(b) for the cold paths (an unknown PDU's
// body, an event parameter of an odd type), where its inlined copies
// cost 1.3 KB of WebAssembly each (issue 18).
//
//go:noinline
func hexText(b []byte) string { return hex.EncodeToString(b) }

// hex32 is v in hex, 0x first. It is not inlined: its two calls at
// each of its callers cost the WebAssembly modules more (issue 18).
//
//go:noinline
func hex32(v uint32) string { return "0x" + strconv.FormatUint(uint64(v), 16) }

// typeNames are the schema's names of PCP value types, by type code
// (pcp.TypeNoSupport is -1, kept apart). A table rather than a map: the
// map's initialisation cost the modules 3 KB.
var typeNames = [...]string{
	pcp.Type32: "32", pcp.TypeU32: "u32", pcp.Type64: "64", pcp.TypeU64: "u64",
	pcp.TypeFloat: "float", pcp.TypeDouble: "double", pcp.TypeString: "string", pcp.TypeAggregate: "aggregate",
	pcp.TypeAggregateStatic: "aggregate_static", pcp.TypeEvent: "event", pcp.TypeHighResEvent: "highres_event",
}

// TypeName is the schema's name of a PCP value type: 32, u32, 64, u64,
// float, double, string, aggregate, event, ..., or its number.
func TypeName(t pcp.Type) string {
	switch {
	case t == pcp.TypeNoSupport:
		return "nosupport"
	case t == pcp.TypeUnknown:
		return "unknown"
	case t >= 0 && int(t) < len(typeNames) && typeNames[t] != "":
		return typeNames[t]
	}
	return strconv.Itoa(int(t))
}

var semNames = [...]string{pcp.SemCounter: "counter", pcp.SemInstant: "instant", pcp.SemDiscrete: "discrete"}

func desc(d pduwire.Desc) Desc {
	return Desc{PMID: d.ID.String(), Type: TypeName(d.Type), InDom: d.InDom.String(), Sem: semName(d.Sem), Units: d.Units.String()}
}

func logTime(t pduwire.LogTime) LogTime { return LogTime{Sec: t.Sec, Frac: t.Frac} }

// cstr stops a NUL-terminated byte string at its first NUL.
func cstr(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\x00")
	return s
}
