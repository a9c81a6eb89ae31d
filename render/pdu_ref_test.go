package render

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

var fmtNames = [...]string{pduwire.ValInsitu: "insitu", pduwire.ValDPTR: "dptr", pduwire.ValSPTR: "sptr"}

// The reference PDU path, which the in-place writers (the RESULT writer
// and appendBody) are held to: the PDU
// decoded into pduwire's message, then into its schema body (ResultBody,
// ProfileBody, ...), then marshalled and merged with the header. The
// tests below hold AppendPDU to its bytes.

// refAppendPDU is AppendPDU as it was before the PDUs were written in
// place: RESULTs built as ResultBody values, other PDUs as their body
// struct by refDecodeBody, each marshalled and merged with the header.
func refAppendPDU(dst []byte, file string, p pduwire.PDU) ([]byte, error) {
	t := p.Header.Type
	h := schema.PDUHeader{File: file, Offset: p.Offset, Len: p.Header.Len, Type: t.String(), From: p.Header.From}
	if t != pduwire.TypeResult && t != pduwire.TypeHighResResult {
		body, err := refDecodeBody(t, p.Bytes)
		if err != nil {
			return dst, refPDUError(p, err)
		}
		return appendMerged(dst, &h, body)
	}
	m := pduwire.ResultPDU{HighRes: t == pduwire.TypeHighResResult}
	if err := m.UnmarshalBinary(p.Bytes); err != nil {
		return dst, refPDUError(p, err)
	}
	return appendMerged(dst, &h, refResultBody(&m))
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

// refDecodeBody decodes whole PDU b of type t (not a RESULT) into its
// schema body, with pduwire's errors: appendBody's bytes are this body's
// MarshalMsg.
func refDecodeBody(t pduwire.Type, b []byte) (msgp.Marshaler, error) {
	var body msgp.Marshaler
	var err error
	switch t {
	case pduwire.TypeError:
		var m pduwire.ErrorPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		if !m.Extended {
			body = &schema.ErrorBody{Code: m.Code}
			break
		}
		f := pduwire.Features(m.Datum)
		body = &schema.ErrorExtBody{Code: m.Code, Datum: refHex32(m.Datum), HandshakeStatus: int32(pcp.FromV1(m.Code)),
			Version: f.Version(), Features: refHex32(uint32(f.Flags()))}
	case pduwire.TypeProfile:
		var m pduwire.ProfilePDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		in := m.Entries
		es := make([]schema.ProfileEntry, len(in))
		for i, e := range in {
			insts := make([]int32, len(e.Insts))
			copy(insts, e.Insts)
			es[i] = schema.ProfileEntry{InDom: e.InDom.String(), State: e.State, Insts: insts}
		}
		body = &schema.ProfileBody{Ctx: m.Ctx, State: m.State, Entries: es}
	case pduwire.TypeFetch, pduwire.TypeHighResFetch:
		m := pduwire.FetchPDU{HighRes: t == pduwire.TypeHighResFetch}
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &schema.FetchBody{Ctx: m.Ctx, PMIDs: refIDs(m.PMIDs)}
	case pduwire.TypeDescReq:
		var m pduwire.DescReqPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &schema.PMIDBody{PMID: m.PMID.String()}
	case pduwire.TypeDesc:
		var m pduwire.DescPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &schema.DescBody{Desc: refDesc(m.Desc)}
	case pduwire.TypeDescIDs:
		var m pduwire.DescIDsPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &schema.PMIDsBody{PMIDs: refIDs(m.PMIDs)}
	case pduwire.TypeDescs:
		var m pduwire.DescsPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		in := m.Descs
		ds := make([]schema.Desc, len(in))
		for i, d := range in {
			ds[i] = refDesc(d)
		}
		body = &schema.DescsBody{Descs: ds}
	case pduwire.TypeInstanceReq:
		var m pduwire.InstanceReqPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &schema.InstanceReqBody{InDom: m.InDom.String(), Inst: m.Inst, Name: string(m.Name)}
	case pduwire.TypeInstance:
		var m pduwire.InstancePDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		in := m.Instances
		is := make([]schema.Instance, len(in))
		for i, e := range in {
			is[i] = schema.Instance{Inst: e.Inst, Name: string(e.Name)}
		}
		body = &schema.InstanceBody{InDom: m.InDom.String(), Instances: is}
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
		body = &schema.IdentKindBody{Ident: refHex32(m.Ident), Kind: m.Kind}
	case pduwire.TypeText:
		var m pduwire.TextPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &schema.TextBody{Ident: refHex32(m.Ident), Text: string(m.Text)}
	case pduwire.TypeCreds:
		var m pduwire.CredsPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		in := m.Creds
		cs := make([]schema.Cred, len(in))
		for i, c := range in {
			cs[i] = schema.Cred{Type: c.Kind(), Version: c.Version(), Flags: refHex32(uint32(c.Flags()))}
		}
		body = &schema.CredsBody{Creds: cs}
	case pduwire.TypePMNSIDs:
		var m pduwire.PMNSIDsPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &schema.PMNSIDsBody{Status: m.Status, PMIDs: refIDs(m.PMIDs)}
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
		body = &schema.PMNSNamesBody{Status: m.Status, Names: ns, Statuses: sts}
	case pduwire.TypePMNSChild, pduwire.TypePMNSTraverse:
		m := pduwire.PMNSChildPDU{Traverse: t == pduwire.TypePMNSTraverse}
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &schema.PMNSChildBody{Subtype: m.Subtype, Name: string(m.Name)}
	case pduwire.TypeAttr:
		var m pduwire.AttrPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &schema.AttrBody{Attr: m.Attr, Value: string(m.Value)}
	case pduwire.TypeLabel:
		var m pduwire.LabelPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		in := m.Sets
		sets := make([]schema.PDULabelSet, len(in))
		for i, s := range in {
			lin := s.Labels
			ls := make([]schema.Label, len(lin))
			for j, l := range lin {
				ls[j] = schema.Label{Name: string(s.JSON[l.Name : int(l.Name)+int(l.NameLen)]),
					Value: string(s.JSON[l.Value : int(l.Value)+int(l.ValueLen)]), Flags: l.Flags,
					NameOff: l.Name, NameLen: l.NameLen, ValueOff: l.Value, ValueLen: l.ValueLen}
			}
			sets[i] = schema.PDULabelSet{Inst: s.Inst, NLabels: s.NLabels, JSON: string(s.JSON), Labels: ls}
		}
		body = &schema.LabelBody{Ident: refHex32(m.Ident), Kind: m.Kind, Sets: sets}
	case pduwire.TypeLogRequest:
		var m pduwire.LogRequestPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &schema.LogRequestBody{Request: m.Request}
	case pduwire.TypeLogControl:
		var m pduwire.LogControlPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		in := m.Metrics
		ms := make([]schema.LogMetric, len(in))
		for i, lm := range in {
			vin := lm.Values
			vs := make([]schema.LogValue, len(vin))
			for j, v := range vin {
				vs[j] = schema.LogValue{Inst: v.Inst, Value: v.Value}
			}
			ms[i] = schema.LogMetric{PMID: lm.PMID.String(), NumVal: lm.NumVal, Values: vs}
		}
		body = &schema.LogControlBody{Control: m.Control, State: m.State, DeltaMS: m.Delta, Metrics: ms}
	case pduwire.TypeLogStatusV2:
		var m pduwire.LogStatusV2PDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		body = &schema.LogStatusV2Body{Start: logTime(m.Start), Last: logTime(m.Last), Now: logTime(m.Now),
			State: m.State, Vol: m.Vol, Size: m.Size, Host: refCstr(m.Host[:]), FQDN: refCstr(m.FQDN[:]),
			PMCDTZ: refCstr(m.PMCDTZ[:]), LoggerTZ: refCstr(m.LoggerTZ[:])}
	case pduwire.TypeLogStatus:
		var m pduwire.LogStatusPDU
		if err = m.UnmarshalBinary(b); err != nil {
			break
		}
		ss := make([]string, len(m.Strings))
		for i := range ss {
			ss[i] = refCstr(m.Strings[i])
		}
		body = &schema.LogStatusBody{Start: logTime(m.Start), Last: logTime(m.Last), Now: logTime(m.Now),
			State: m.State, Vol: m.Vol, Size: m.Size, Strings: ss}
	default:
		body = &schema.UnknownBody{BodyHex: hex.EncodeToString(b[min(len(b), pduwire.HeaderLen):])}
	}
	return body, err
}

func logTime(t pduwire.LogTime) schema.LogTime { return schema.LogTime{Sec: t.Sec, Frac: t.Frac} }

// refCstr stops a NUL-terminated byte string at its first NUL.
func refCstr(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\x00")
	return s
}

func refResultBody(m *pduwire.ResultPDU) *schema.ResultBody {
	o := &schema.ResultBody{Sec: m.Sec, Nsec: m.Nsec, NumPMID: len(m.Sets), ValueSets: make([]schema.ValueSet, 0, len(m.Sets))}
	for _, vs := range m.Sets {
		s := schema.ValueSet{PMID: vs.PMID.String(), NumVal: vs.NumVal}
		if len(vs.Values) > 0 {
			f := vs.ValFmt
			s.ValFmt = &f
			s.Values = make([]schema.Value, 0, len(vs.Values))
			for _, v := range vs.Values {
				s.Values = append(s.Values, refResultValue(v, vs.ValFmt))
			}
		}
		o.ValueSets = append(o.ValueSets, s)
	}
	return o
}

// refResultValue is one RESULT value: insitu as its 32-bit word, a block by its
// type.
func refResultValue(v pduwire.ValueData, valfmt uint8) schema.Value {
	o := schema.Value{Inst: v.Inst}
	if int(valfmt) < len(fmtNames) {
		o.Fmt = fmtNames[valfmt]
	}
	if valfmt == pduwire.ValInsitu {
		o.Value = rawInt(int64(int32(v.Word)))
		return o
	}
	o.Type = refTypeName(v.BlockType)
	p := v.Payload
	switch {
	case v.BlockType == pcp.Type64 && len(p) == 8:
		o.Value = rawInt(int64(binary.BigEndian.Uint64(p)))
	case v.BlockType == pcp.TypeU64 && len(p) == 8:
		o.Value = rawUint(binary.BigEndian.Uint64(p))
	case v.BlockType == pcp.TypeDouble && len(p) == 8:
		o.Value = rawFloat(math.Float64frombits(binary.BigEndian.Uint64(p)))
	case v.BlockType == pcp.TypeFloat && len(p) == 4:
		o.Value = rawFloat(float64(math.Float32frombits(binary.BigEndian.Uint32(p))))
	case v.BlockType == pcp.TypeString:
		o.Value = refRaw(msgp.AppendString(nil, strings.TrimSuffix(string(p), "\x00")))
	case v.BlockType == pcp.TypeEvent || v.BlockType == pcp.TypeHighResEvent:
		o.Records = refResultEvents(v)
	default:
		h := hex.EncodeToString(p)
		o.Hex = &h
	}
	return o
}

// rawBox holds a short Raw and its bytes in one allocation, for a
// number's encoding (at most 9 bytes).
type rawBox struct {
	r   schema.Raw
	buf [9]byte
}

// rawInt, rawUint and rawFloat return a number's Raw in one allocation.
func rawInt(v int64) *schema.Raw {
	x := new(rawBox)
	x.r = msgp.AppendInt64(x.buf[:0], v)
	return &x.r
}

func rawUint(v uint64) *schema.Raw {
	x := new(rawBox)
	x.r = msgp.AppendUint64(x.buf[:0], v)
	return &x.r
}

func rawFloat(v float64) *schema.Raw {
	x := new(rawBox)
	x.r = refFloat(x.buf[:0], v)
	return &x.r
}

// refResultEvents decodes an event-record array value of a RESULT, which
// pduwire has validated, leniently as pminfo does.
func refResultEvents(v pduwire.ValueData) []schema.EventRecord {
	blk := make([]byte, 4, 4+len(v.Payload))
	binary.BigEndian.PutUint32(blk, uint32(v.BlockType)<<24|uint32(len(v.Payload)+4))
	a, err := eventrec.Parse(append(blk, v.Payload...), eventrec.Options{Type: v.BlockType, Lenient: true})
	if err != nil {
		return []schema.EventRecord{}
	}
	return eventRecords(a)
}

// checkResultPath compares AppendPDU with the reference on every PDU of
// stream in; it returns how many RESULTs it compared.
func checkResultPath(t *testing.T, name string, in []byte) int {
	t.Helper()
	n := 0
	for p, err := range pduwire.All(in, pduwire.Options{}) {
		if err != nil {
			break
		}
		// With a file name every other PDU: the header's fifth key.
		file := [...]string{"", "conv05.server.bin"}[p.Offset%2]
		want, werr := refAppendPDU(nil, file, p)
		got, gerr := AppendPDU(nil, file, p)
		if !sameError(gerr, werr) || !bytes.Equal(got, want) {
			t.Errorf("%s: PDU at %d: got %x, %v\nwant %x, %v", name, p.Offset, got, gerr, want, werr)
			continue
		}
		if t := p.Header.Type; t != pduwire.TypeResult && t != pduwire.TypeHighResResult {
			continue
		}
		n++
	}
	return n
}

// TestResultPathCaptures: every RESULT of pmcd's recorded conversations
// (sample PMDA values of every type, event arrays of both kinds) and
// libpcp's 1,000-value RESULTs.
func TestResultPathCaptures(t *testing.T) {
	files, _ := filepath.Glob("../pduwire/testdata/captures/conv*.bin")
	more, _ := filepath.Glob("testdata/conv*.bin")
	files = append(files, more...)
	files = append(files, "../bench/testdata/result-1000.bin", "../bench/testdata/result-1000-highres.bin",
		"../bench/testdata/pmcd-fetch50.server.bin")
	n := 0
	for _, f := range files {
		in, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n += checkResultPath(t, f, in)
	}
	if n < 30 {
		t.Fatalf("%d RESULTs compared", n)
	}
}

// TestResultPathValues: RESULTs built with every value kind the schema
// writes apart: insitu, 64-bit, u64, float and double (with NaN and the
// infinities), strings with and without their NUL, aggregates, blocks of
// a fixed-size type with the wrong size, empty and failed value sets,
// PM_ID_NULL, and event arrays that do not parse.
func TestResultPathValues(t *testing.T) {
	be := binary.BigEndian
	u64 := func(v uint64) []byte { return be.AppendUint64(nil, v) }
	f32 := func(v float32) []byte { return be.AppendUint32(nil, math.Float32bits(v)) }
	vals := []pduwire.ValueData{
		{Inst: 0, BlockType: pcp.Type64, Payload: u64(uint64(1 << 63))},
		{Inst: 1, BlockType: pcp.TypeU64, Payload: u64(1<<64 - 1)},
		{Inst: 2, BlockType: pcp.TypeDouble, Payload: u64(math.Float64bits(math.NaN()))},
		{Inst: 3, BlockType: pcp.TypeDouble, Payload: u64(math.Float64bits(math.Inf(-1)))},
		{Inst: 4, BlockType: pcp.TypeDouble, Payload: u64(math.Float64bits(-0.5))},
		{Inst: 5, BlockType: pcp.TypeFloat, Payload: f32(float32(math.Inf(1)))},
		{Inst: 6, BlockType: pcp.TypeFloat, Payload: f32(1.25)},
		{Inst: 7, BlockType: pcp.TypeString, Payload: []byte("text\x00")},
		{Inst: 8, BlockType: pcp.TypeString, Payload: []byte("no nul, and longer than thirty-one bytes")},
		{Inst: 9, BlockType: pcp.TypeString, Payload: []byte("two\x00\x00")},
		{Inst: 10, BlockType: pcp.TypeAggregate, Payload: []byte{1, 2, 3, 0xff}},
		{Inst: 11, BlockType: pcp.TypeAggregateStatic, Payload: []byte{}},
		{Inst: 12, BlockType: pcp.Type32, Payload: []byte{0, 0, 0, 7}},
		{Inst: 13, BlockType: pcp.TypeU32, Payload: []byte{0xff, 0xff, 0xff, 0xff}},
		{Inst: -1, BlockType: pcp.TypeEvent, Payload: []byte{0, 0, 0, 0}},
		{Inst: 14, BlockType: pcp.TypeHighResEvent, Payload: []byte{0, 0, 0, 5, 1, 2, 3, 4}},
		{Inst: 15, BlockType: pcp.Type(0x7f), Payload: []byte("x")},
	}
	var sets []pduwire.ValueSetData
	for i := range vals {
		sets = append(sets, pduwire.ValueSetData{PMID: pcp.NewID(511, 4095, uint32(i)), ValFmt: pduwire.ValDPTR, Values: vals[i : i+1]})
	}
	sets = append(sets,
		pduwire.ValueSetData{PMID: pcp.NewID(29, 0, 5), ValFmt: pduwire.ValSPTR, Values: vals},
		pduwire.ValueSetData{PMID: pcp.IDNull, NumVal: -12357},
		pduwire.ValueSetData{PMID: pcp.NewID(0, 0, 0)},
		pduwire.ValueSetData{PMID: pcp.NewID(1, 2, 3), ValFmt: pduwire.ValInsitu, Values: []pduwire.ValueData{
			{Inst: -1, Word: 0xffffffff}, {Inst: 1 << 30, Word: 1 << 31}, {Inst: 0, Word: 17}}},
	)
	var in []byte
	for _, hr := range []bool{false, true} {
		m := pduwire.ResultPDU{HighRes: hr, Sec: 1700000000, Nsec: 123456000, Sets: sets}
		in = m.Append(in, 7)
		in = (&pduwire.ResultPDU{HighRes: hr, Sec: -1}).Append(in, 0)
	}
	if n := checkResultPath(t, "built", in); n != 4 {
		t.Fatalf("%d RESULTs compared, want 4", n)
	}
	// Damaged RESULTs: both paths fail with the same error.
	for p, err := range pduwire.All(in, pduwire.Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		for i := pduwire.HeaderLen; i < len(p.Bytes); i += 3 {
			b := bytes.Clone(p.Bytes)
			b[i] ^= 0x81
			q := p
			q.Bytes = b
			want, werr := refAppendPDU(nil, "", q)
			got, gerr := AppendPDU(nil, "", q)
			if !sameError(gerr, werr) || !bytes.Equal(got, want) {
				t.Fatalf("byte %d flipped: got %x, %v\nwant %x, %v", i, got, gerr, want, werr)
			}
		}
	}
}

// TestEventRecordsPath: appendEventRecords writes what eventRecords'
// values marshal to, for arrays of both kinds with every parameter type,
// every flag, missed-record markers and records without parameters, and
// for the event arrays of conv05's RESULT.
func TestEventRecordsPath(t *testing.T) {
	var blocks [][]byte
	for _, typ := range []pcp.Type{pcp.TypeEvent, pcp.TypeHighResEvent} {
		b := eventrec.NewBuilder(nil, typ)
		id := pcp.NewID(29, 0, 134)
		b.AddRecord(1700000000, 5, eventrec.FlagPoint)
		b.AddInt32(id, -7)
		b.AddUint32(id, 1<<31)
		b.AddInt64(id, -1<<40)
		b.AddUint64(id, 1<<63)
		b.AddFloat32(id, float32(math.Inf(1)))
		b.AddFloat64(id, math.NaN())
		b.AddString(pcp.IDNull, "a string longer than thirty-one bytes")
		b.AddAggregate(id, []byte{0, 1, 2})
		b.AddRecord(-1, 0, eventrec.FlagStart|eventrec.FlagEnd|eventrec.FlagID|eventrec.FlagParent|eventrec.FlagPoint)
		b.AddMissed(3, 4, 12)
		b.AddRecord(5, 6, 0)
		blk, err := b.Finish()
		if err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, blk)
	}
	more, _ := filepath.Glob("testdata/conv05.pdu0.*.bin")
	for _, f := range more {
		blk, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, blk)
	}
	if len(blocks) != 6 {
		t.Fatalf("%d event arrays", len(blocks))
	}
	for i, blk := range blocks {
		a, err := eventrec.Parse(blk, eventrec.Options{Type: pcp.Type(blk[0]), Lenient: true})
		if err != nil {
			t.Fatalf("array %d: %v", i, err)
		}
		recs := eventRecords(a)
		want := msgp.AppendArrayHeader(nil, uint32(len(recs)))
		for j := range recs {
			want, _ = recs[j].MarshalMsg(want)
		}
		if got := appendEventRecords(nil, a); !bytes.Equal(got, want) {
			t.Errorf("array %d: got %x\nwant %x", i, got, want)
		}
	}
}

// TestAppendEvents: events_decode's in-place writer gives DecodeEvents's
// bytes for conv05's event arrays, whole and damaged byte by byte.
func TestAppendEvents(t *testing.T) {
	files, _ := filepath.Glob("testdata/conv05.pdu0.*.bin")
	if len(files) != 4 {
		t.Fatalf("%d event arrays", len(files))
	}
	for _, f := range files {
		blk, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i := -1; i < len(blk); i++ {
			in := bytes.Clone(blk)
			if i >= 0 {
				in[i] ^= 0x41
			}
			r := DecodeEvents(in)
			want, _ := r.MarshalMsg([]byte("prefix"))
			if got := AppendEvents([]byte("prefix"), in); !bytes.Equal(got, want) {
				t.Fatalf("%s, byte %d flipped: got %x\nwant %x", f, i, got, want)
			}
		}
	}
}
