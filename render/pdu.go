package render

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"strconv"

	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

// DecodePDUs frames a PCP byte stream into PDUs (PDUs up to limit bytes;
// 0 means pduwire's default client limit) and decodes each one in full.
// The first framing or body error ends the stream; what came before it
// is kept.
func DecodePDUs(in []byte, limit int) schema.PDUStream {
	return pduStream(AppendPDUs(nil, in, limit))
}

// AppendPDU appends to dst the MessagePack map of framed PDU p: its
// header (with file, when not empty) and its decoded body. A body that
// does not decode as its type says returns the *wire.Error with its
// offset counted from the stream's start and its field prefixed by the
// PDU's type and offset.
func AppendPDU(dst []byte, file string, p pduwire.PDU) ([]byte, error) {
	return appendPDU(dst, file, p, nil)
}

// appendPDU is AppendPDU with lab, when not nil, the LABEL PDU decoded
// into: a caller writing many PDUs passes one, whose sets and labels
// are reused from one LABEL PDU to the next instead of allocated.
func appendPDU(dst []byte, file string, p pduwire.PDU, lab *pduwire.LabelPDU) ([]byte, error) {
	// PDUHeader's keys, as its MarshalMsg writes them (with no PDUHeader
	// value, whose MarshalMsg would be linked for this alone), then the
	// body's: at most 5 and 10 keys, a fixmap.
	t := p.Header.Type
	e := schema.BeginMap(dst, 15)
	if file != "" {
		e.Str("\xa4file", file)
	}
	e.Int("\xa6offset", p.Offset)
	e.Uint("\xa3len", uint64(p.Header.Len))
	e.Str("\xa4type", t.String())
	e.Int("\xa4from", int64(p.Header.From))
	var err error
	if t == pduwire.TypeResult || t == pduwire.TypeHighResResult {
		// Most of a stream: written in one pass, with no body value.
		// The keys of a validated RESULT or HIGHRES_RESULT, the bytes
		// ResultBody's MarshalMsg gives, written straight from pduwire's
		// view of the PDU without building the body first (a string
		// per PMID and an allocation per value, which would spend a
		// RESULT stream's time in the allocator).
		var r pduwire.Result
		if r, err = pduwire.ParseResult(p.Bytes); err == nil {
			e.Int("\xa3sec", r.Sec)
			e.Int("\xa4nsec", r.Nsec)
			e.Int("\xa7numpmid", int64(r.NumPMID))
			e.Array("\xaavalue_sets", r.NumPMID)
			b := e.B
			s := r.Scan()
			for s.Next() {
				vs := s.ValueSet()
				b = appendValueSet(b, &vs)
			}
			e.B = b
		}
	} else {
		e, err = appendBody(e, t, p.Bytes, lab)
	}
	if err != nil {
		return dst, pduError(p, err)
	}
	return e.End(), nil
}

// pduError places a body's decoding error in the stream: its offset
// counted from the stream's start, its field prefixed by the PDU's type
// and offset.
func pduError(p pduwire.PDU, err error) error {
	// pduwire returns its *wire.Error itself, never wrapped.
	if pe, ok := err.(*wire.Error); ok {
		abs := *pe
		abs.Offset += p.Offset
		abs.Field = p.Header.Type.String() + " PDU at offset " + strconv.FormatInt(p.Offset, 10) + ": " + pe.Field
		err = &abs
	}
	return err
}

// appendBody decodes whole PDU b of type t, any type but the RESULTs,
// and writes its schema body's keys to e (a copy: stores to a local need
// no write barrier), which it returns, as the body struct's
// MarshalMsg would (pdutypes.go; pdu_ref_test.go holds it to those
// bytes), with pduwire's errors. Written in place rather than built as
// the body and marshalled: a MarshalMsg method per body type and an
// allocation per body, write barriers and a string per field would cost
// the modules more. It switches on concrete types rather than going
// through pduwire.New: a value in the pduwire.Message interface keeps
// every String method its fields' types have, which would link pcp's
// text formatting into each module (module size; so would an interface
// of UnmarshalBinary alone). The cases break to one return.
func appendBody(e schema.Map, t pduwire.Type, b []byte, lab *pduwire.LabelPDU) (schema.Map, error) {
	var err error
	switch t {
	case pduwire.TypeError:
		var m pduwire.ErrorPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		e.Int("\xa4code", int64(m.Code))
		if !m.Extended {
			break
		}
		f := pduwire.Features(m.Datum)
		putHex32(&e, "\xa5datum", m.Datum)
		e.Int("\xb0handshake_status", int64(pcp.FromV1(m.Code)))
		e.Uint("\xa7version", uint64(f.Version()))
		putHex32(&e, "\xa8features", uint32(f.Flags()))
	case pduwire.TypeProfile:
		var m pduwire.ProfilePDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		e.Int("\xa3ctx", int64(m.Ctx))
		e.Int("\xa5state", int64(m.State))
		e.Array("\xa7entries", len(m.Entries))
		for _, en := range m.Entries {
			f := schema.BeginMap(e.B, 3)
			putInDom(&f, "\xa5indom", en.InDom)
			f.Int("\xa5state", int64(en.State))
			f.Int32s("\xa5insts", en.Insts)
			e.B = f.End()
		}
	case pduwire.TypeFetch, pduwire.TypeHighResFetch:
		m := pduwire.FetchPDU{HighRes: t == pduwire.TypeHighResFetch}
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		e.Int("\xa3ctx", int64(m.Ctx))
		mapIDs(&e, "\xa5pmids", m.PMIDs)
	case pduwire.TypeDescReq:
		var m pduwire.DescReqPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		e.B = appendID(e.Key("\xa4pmid"), m.PMID)
	case pduwire.TypeDesc:
		var m pduwire.DescPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		e.B = appendDesc(e.Key("\xa4desc"), m.Desc)
	case pduwire.TypeDescIDs:
		var m pduwire.DescIDsPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		mapIDs(&e, "\xa5pmids", m.PMIDs)
	case pduwire.TypeDescs:
		var m pduwire.DescsPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		e.Array("\xa5descs", len(m.Descs))
		for _, d := range m.Descs {
			e.B = appendDesc(e.B, d)
		}
	case pduwire.TypeInstanceReq:
		var m pduwire.InstanceReqPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		putInDom(&e, "\xa5indom", m.InDom)
		e.Int("\xa4inst", int64(m.Inst))
		e.Text("\xa4name", m.Name)
	case pduwire.TypeInstance:
		var m pduwire.InstancePDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		putInDom(&e, "\xa5indom", m.InDom)
		e.Array("\xa9instances", len(m.Instances))
		for _, in := range m.Instances {
			f := schema.BeginMap(e.B, 2)
			f.Int("\xa4inst", int64(in.Inst))
			f.Text("\xa4name", in.Name)
			e.B = f.End()
		}
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
		putHex32(&e, "\xa5ident", m.Ident)
		e.Int("\xa4kind", int64(m.Kind))
	case pduwire.TypeText:
		var m pduwire.TextPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		putHex32(&e, "\xa5ident", m.Ident)
		e.Text("\xa4text", m.Text)
	case pduwire.TypeCreds:
		var m pduwire.CredsPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		e.Array("\xa5creds", len(m.Creds))
		for _, c := range m.Creds {
			f := schema.BeginMap(e.B, 3)
			f.Uint("\xa4type", uint64(c.Kind()))
			f.Uint("\xa7version", uint64(c.Version()))
			putHex32(&f, "\xa5flags", uint32(c.Flags()))
			e.B = f.End()
		}
	case pduwire.TypePMNSIDs:
		var m pduwire.PMNSIDsPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		e.Int("\xa6status", int64(m.Status))
		mapIDs(&e, "\xa5pmids", m.PMIDs)
	case pduwire.TypePMNSNames:
		var m pduwire.PMNSNamesPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		e.Int("\xa6status", int64(m.Status))
		e.Array("\xa5names", len(m.Names))
		for _, n := range m.Names {
			e.B = schema.AppendStr(e.B, n)
		}
		if m.Statuses != nil {
			e.Int32s("\xa8statuses", m.Statuses)
		}
	case pduwire.TypePMNSChild, pduwire.TypePMNSTraverse:
		m := pduwire.PMNSChildPDU{Traverse: t == pduwire.TypePMNSTraverse}
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		e.Int("\xa7subtype", int64(m.Subtype))
		e.Text("\xa4name", m.Name)
	case pduwire.TypeAttr:
		var m pduwire.AttrPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		e.Int("\xa4attr", int64(m.Attr))
		e.Text("\xa5value", m.Value)
	case pduwire.TypeLabel:
		m := lab
		if m == nil {
			m = new(pduwire.LabelPDU)
		}
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		putHex32(&e, "\xa5ident", m.Ident)
		e.Int("\xa4kind", int64(m.Kind))
		e.Array("\xa4sets", len(m.Sets))
		for _, s := range m.Sets {
			f := schema.BeginMap(e.B, 4)
			f.Int("\xa4inst", int64(s.Inst))
			f.Int("\xa7nlabels", int64(s.NLabels))
			f.Text("\xa4json", s.JSON)
			f.Array("\xa6labels", len(s.Labels))
			for _, l := range s.Labels {
				f.B = appendLabel(f.B, s.JSON, l.Name, l.NameLen, l.Flags, l.Value, l.ValueLen)
			}
			e.B = f.End()
		}
	case pduwire.TypeLogRequest:
		var m pduwire.LogRequestPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		e.Int("\xa7request", int64(m.Request))
	case pduwire.TypeLogControl:
		var m pduwire.LogControlPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		e.Int("\xa7control", int64(m.Control))
		e.Int("\xa5state", int64(m.State))
		e.Int("\xa8delta_ms", int64(m.Delta))
		e.Array("\xa7metrics", len(m.Metrics))
		for _, lm := range m.Metrics {
			f := schema.BeginMap(e.B, 3)
			f.B = appendID(f.Key("\xa4pmid"), lm.PMID)
			f.Int("\xa6numval", int64(lm.NumVal))
			f.Array("\xa6values", len(lm.Values))
			for _, v := range lm.Values {
				g := schema.BeginMap(f.B, 2)
				g.Int("\xa4inst", int64(v.Inst))
				g.Uint("\xa5value", uint64(v.Value))
				f.B = g.End()
			}
			e.B = f.End()
		}
	case pduwire.TypeLogStatusV2:
		var m pduwire.LogStatusV2PDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		logHead(&e, &[3]pduwire.LogTime{m.Start, m.Last, m.Now}, m.State, m.Vol, m.Size)
		e.Text("\xa4host", cstr(m.Host[:]))
		e.Text("\xa4fqdn", cstr(m.FQDN[:]))
		e.Text("\xa7pmcd_tz", cstr(m.PMCDTZ[:]))
		e.Text("\xa9logger_tz", cstr(m.LoggerTZ[:]))
	case pduwire.TypeLogStatus:
		var m pduwire.LogStatusPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		logHead(&e, &[3]pduwire.LogTime{m.Start, m.Last, m.Now}, m.State, m.Vol, m.Size)
		e.Array("\xa7strings", len(m.Strings))
		for _, s := range m.Strings {
			e.B = schema.AppendStr(e.B, cstr(s))
		}
	default:
		e.Str("\xa8body_hex", hexText(b[min(len(b), pduwire.HeaderLen):]))
	}
	return e, err
}

// mapIDs writes k and the text of each identifier of v.
//
//go:noinline
func mapIDs(e *schema.Map, k string, v []pcp.ID) {
	e.Array(k, len(v))
	for _, id := range v {
		e.B = appendID(e.B, id)
	}
}

// appendDesc appends d as Desc's MarshalMsg does.
//
//go:noinline
func appendDesc(b []byte, d pduwire.Desc) []byte {
	e := schema.BeginMap(b, 5)
	e.B = appendID(e.Key("\xa4pmid"), d.ID)
	e.Str("\xa4type", TypeName(d.Type))
	putInDom(&e, "\xa5indom", d.InDom)
	e.Str("\xa3sem", semName(d.Sem))
	e.Str("\xa5units", d.Units.String())
	return e.End()
}

// logHead writes the keys both LOG_STATUS bodies start with.
//
//go:noinline
func logHead(e *schema.Map, ts *[3]pduwire.LogTime, state, vol int32, size int64) {
	for i, k := range [...]string{"\xa5start", "\xa4last", "\xa3now"} {
		f := schema.BeginMap(e.Key(k), 2)
		f.Int("\xa3sec", ts[i].Sec)
		f.Int("\xa4frac", int64(ts[i].Frac))
		e.B = f.End()
	}
	e.Int("\xa5state", int64(state))
	e.Int("\xa3vol", int64(vol))
	e.Int("\xa4size", size)
}

// appendValueSet appends one value set as ValueSet's MarshalMsg does.
// It and appendBlock, which write most of a RESULT stream's bytes, store
// their keys and small numbers themselves instead of calling Map's
// methods: a call costs far more in WebAssembly than natively.
func appendValueSet(b []byte, vs *pduwire.ValueSet) []byte {
	n := vs.Len()
	keys := byte(0x82)
	if n > 0 {
		keys = 0x84
	}
	b = appendID(append(b, keys, 0xa4, 'p', 'm', 'i', 'd'), vs.PMID)
	b = schema.AppendInt32(append(b, 0xa6, 'n', 'u', 'm', 'v', 'a', 'l'), vs.NumVal)
	if n > 0 {
		b = schema.AppendUint64(append(b, 0xa6, 'v', 'a', 'l', 'f', 'm', 't'), uint64(vs.ValFmt))
		b = schema.AppendArrayHeader(append(b, 0xa6, 'v', 'a', 'l', 'u', 'e', 's'), uint32(n))
		if vs.ValFmt == pduwire.ValInsitu {
			// Insitu values {inst, fmt, value}, the 32-bit word as a
			// signed number: half of a RESULT stream's values, written
			// here with no call for a fixint.
			for i := range n {
				inst, w := vs.Word(i)
				b = schema.AppendInt32(append(b, 0x83, 0xa4, 'i', 'n', 's', 't'), inst)
				b = append(b, 0xa3, 'f', 'm', 't', 0xa6, 'i', 'n', 's', 'i', 't', 'u', 0xa5, 'v', 'a', 'l', 'u', 'e')
				b = schema.AppendInt32(b, int32(w))
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
			b = append(schema.AppendInt32(append(b, 0x84, 0xa4, 'i', 'n', 's', 't'), inst), dptrKeys[t]...)
			switch t {
			case pcp.TypeString:
				b = schema.AppendStr(b, trimNUL(p))
			case pcp.Type64:
				b = schema.AppendInt64(b, int64(u))
			case pcp.TypeU64:
				b = schema.AppendUint64(b, u)
			default:
				// A double's bits are MessagePack's float64 already.
				b = schema.AppendBits64(b, u)
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
// cost far more in WebAssembly than natively (written out rather than
// made at init: module size; TestValueKeys checks them).
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
	b = schema.AppendInt32(append(b, 0x84, 0xa4, 'i', 'n', 's', 't'), v.Inst)
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
	// The block's last key and its value by its type t: value, records,
	// or hex when the payload's length is not its type's; here, not in a
	// function of its own (module size).
	p := v.Payload()
	if t == pcp.TypeEvent || t == pcp.TypeHighResEvent {
		a, err := v.Events()
		if err != nil {
			a = eventrec.Array{} // no records
		}
		return appendEventRecords(append(b, 0xa7, 'r', 'e', 'c', 'o', 'r', 'd', 's'), a)
	}
	var u uint64
	switch len(p) {
	case 4:
		u = uint64(binary.BigEndian.Uint32(p))
	case 8:
		u = binary.BigEndian.Uint64(p)
	}
	form := byte(0)
	switch {
	case t == pcp.Type64 && len(p) == 8:
		form = 'i'
	case t == pcp.TypeU64 && len(p) == 8:
		form = 'u'
	case t == pcp.TypeDouble && len(p) == 8:
		form = 'd'
	case t == pcp.TypeFloat && len(p) == 4:
		form = 'f'
	case t == pcp.TypeString:
		form, p = 's', trimNUL(p)
	}
	if form == 0 {
		b = append(b, 0xa3, 'h', 'e', 'x')
	} else {
		b = append(b, 0xa5, 'v', 'a', 'l', 'u', 'e')
	}
	return appendForm(b, form, u, p)
}

// trimNUL drops a string value's terminating NUL, when it has one.
func trimNUL(p []byte) []byte {
	if len(p) > 0 && p[len(p)-1] == 0 {
		return p[:len(p)-1]
	}
	return p
}

// appendForm appends a value in the form appendBlock or appendParam
// picked: 'i' and 'u' integers, 'd' and 'f' floats with their bits in
// u, 's' the string p, 0 the hex of p.
func appendForm(b []byte, form byte, u uint64, p []byte) []byte {
	switch form {
	case 'i':
		return schema.AppendInt64(b, int64(u))
	case 'u':
		return schema.AppendUint64(b, u)
	case 'd':
		return AppendFloat(b, math.Float64frombits(u))
	case 'f':
		return AppendFloat(b, float64(math.Float32frombits(uint32(u))))
	case 's':
		return schema.AppendStr(b, p)
	}
	return msgp.AppendString(b, hexText(p))
}

// raw returns b as a value's Raw.
func raw(b []byte) *schema.Raw { r := schema.Raw(b); return &r }

// AppendFloat appends f as the schema writes floats: a MessagePack float,
// or NaN and the infinities as strings, which JSON can carry.
func AppendFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return msgp.AppendString(b, strconv.FormatFloat(f, 'g', -1, 64))
	}
	return schema.AppendFloat64(b, f)
}

// appendEventRecords appends the records of a validated event array as
// the schema's EventRecord values marshal, written straight from the
// array.
func appendEventRecords(b []byte, a eventrec.Array) []byte {
	b = schema.AppendArrayHeader(b, uint32(a.Len()))
	rs := a.Scanner()
	for rs.Next() {
		r := rs.Record()
		e := schema.BeginMap(b, 5)
		e.Int("\xa3sec", r.Seconds())
		e.Int("\xa4nsec", r.Nanoseconds())
		// Flags' text is at most 25 bytes ("point,start,end,id,parent"):
		// a fixstr.
		at := len(e.Key("\xa5flags"))
		e.B, _ = r.Flags().AppendText(append(e.B, 0xa0))
		e.B[at] = 0xa0 | byte(len(e.B)-at-1)
		if n, ok := r.Missed(); ok {
			e.Int("\xa6missed", int64(n))
		} else {
			e.Array("\xa6params", r.NumParams())
			ps := r.ParamScanner()
			for ps.Next() {
				p := ps.Param()
				f := schema.BeginMap(e.B, 3)
				f.B = appendID(f.Key("\xa4pmid"), p.ID)
				f.Str("\xa4type", TypeName(p.Type))
				f.B = appendParam(f.Key("\xa5value"), p)
				e.B = f.End()
			}
		}
		b = e.End()
	}
	return b
}

// appendParam appends an event parameter as a MessagePack value of its
// type: a fixed-size type's number (0 if its length is not the type's,
// as eventrec.Param's getters give), a string, or the hex of anything
// else.
func appendParam(b []byte, p eventrec.Param) []byte {
	v := p.Value
	var u uint64
	switch len(v) {
	case 4:
		u = uint64(binary.BigEndian.Uint32(v))
	case 8:
		u = binary.BigEndian.Uint64(v)
	}
	form, size := byte(0), 0
	switch p.Type {
	case pcp.Type32:
		form, size, u = 'i', 4, uint64(int32(u))
	case pcp.TypeU32:
		form, size = 'u', 4
	case pcp.Type64:
		form, size = 'i', 8
	case pcp.TypeU64:
		form, size = 'u', 8
	case pcp.TypeFloat:
		form, size = 'f', 4
	case pcp.TypeDouble:
		form, size = 'd', 8
	case pcp.TypeString:
		form = 's'
	}
	if len(v) != size {
		u = 0
	}
	return appendForm(b, form, u, v)
}

// hexText is hex.EncodeToString(b) for the cold paths (an unknown PDU's
// body, an event parameter of an odd type), kept out of line: module
// size.
//
//go:noinline
func hexText(b []byte) string { return hex.EncodeToString(b) }

// putHex32 writes key k and v in hex, 0x first, as a MessagePack
// string (at most 10 bytes, a fixstr) with no allocation. Kept out of
// line: module size.
//
//go:noinline
func putHex32(e *schema.Map, k string, v uint32) {
	b := e.Put(k)
	at := len(b)
	b = strconv.AppendUint(append(b, 0xa0, '0', 'x'), uint64(v), 16)
	b[at] = 0xa0 | byte(len(b)-at-1)
	e.B = b
}

// putInDom writes key k and in's text (pcp.InDom.String: at most 13
// bytes, a fixstr) with no allocation. Kept out of line: module size.
//
//go:noinline
func putInDom(e *schema.Map, k string, in pcp.InDom) {
	b := e.Put(k)
	if in == pcp.InDomNull {
		e.B = append(b, "\xadPM_INDOM_NULL"...)
		return
	}
	at := len(b)
	b = strconv.AppendUint(append(b, 0xa0), uint64(in.Domain()), 10)
	b = strconv.AppendUint(append(b, '.'), uint64(in.Serial()), 10)
	b[at] = 0xa0 | byte(len(b)-at-1)
	e.B = b
}

// hex32 is v in hex, 0x first. Kept out of line: module size.
//
//go:noinline
func hex32(v uint32) string { return "0x" + strconv.FormatUint(uint64(v), 16) }

// typeNames are the schema's names of PCP value types, by type code
// (pcp.TypeNoSupport is -1, kept apart). A table rather than a map,
// whose initialisation is code: module size.
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

func desc(d pduwire.Desc) schema.Desc {
	return schema.Desc{PMID: d.ID.String(), Type: TypeName(d.Type), InDom: d.InDom.String(), Sem: semName(d.Sem), Units: d.Units.String()}
}

// cstr stops a NUL-terminated byte string at its first NUL. Not
// inlined: appendBody calls it five times.
//
//go:noinline
func cstr(b []byte) []byte {
	for i, c := range b {
		if c == 0 {
			return b[:i]
		}
	}
	return b
}
