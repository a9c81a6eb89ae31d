package abi

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
	"github.com/tinylib/msgp/msgp"
)

var fmtNames = [...]string{pduwire.ValInsitu: "insitu", pduwire.ValDPTR: "dptr", pduwire.ValSPTR: "sptr"}

// The RESULT path as it was before appendResult wrote RESULTs in one
// pass (issue 18 item 7): the PDU decoded into pduwire.ResultPDU, then
// into ResultBody, then marshalled and merged with the header. The tests
// below hold appendResult to its bytes.

// refAppendPDU is AppendPDU with RESULTs built as ResultBody values.
func refAppendPDU(dst []byte, p pduwire.PDU) ([]byte, error) {
	t := p.Header.Type
	if t != pduwire.TypeResult && t != pduwire.TypeHighResResult {
		return AppendPDU(dst, "", p)
	}
	m := pduwire.ResultPDU{HighRes: t == pduwire.TypeHighResResult}
	if err := m.UnmarshalBinary(p.Bytes); err != nil {
		return dst, pduError(p, err)
	}
	h := PDUHeader{Offset: p.Offset, Len: p.Header.Len, Type: t.String(), From: p.Header.From}
	return appendMerged(dst, &h, refResultBody(&m))
}

func refResultBody(m *pduwire.ResultPDU) *ResultBody {
	o := &ResultBody{Sec: m.Sec, Nsec: m.Nsec, NumPMID: len(m.Sets), ValueSets: make([]ValueSet, 0, len(m.Sets))}
	for _, vs := range m.Sets {
		s := ValueSet{PMID: vs.PMID.String(), NumVal: vs.NumVal}
		if len(vs.Values) > 0 {
			f := vs.ValFmt
			s.ValFmt = &f
			s.Values = make([]Value, 0, len(vs.Values))
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
func refResultValue(v pduwire.ValueData, valfmt uint8) Value {
	o := Value{Inst: v.Inst}
	if int(valfmt) < len(fmtNames) {
		o.Fmt = fmtNames[valfmt]
	}
	if valfmt == pduwire.ValInsitu {
		o.Value = rawInt(int64(int32(v.Word)))
		return o
	}
	o.Type = TypeName(v.BlockType)
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
		o.Value = raw(msgp.AppendString(nil, strings.TrimSuffix(string(p), "\x00")))
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
	r   Raw
	buf [9]byte
}

// rawInt, rawUint and rawFloat return a number's Raw in one allocation.
func rawInt(v int64) *Raw {
	x := new(rawBox)
	x.r = msgp.AppendInt64(x.buf[:0], v)
	return &x.r
}

func rawUint(v uint64) *Raw {
	x := new(rawBox)
	x.r = msgp.AppendUint64(x.buf[:0], v)
	return &x.r
}

func rawFloat(v float64) *Raw {
	x := new(rawBox)
	x.r = AppendFloat(x.buf[:0], v)
	return &x.r
}

// refResultEvents decodes an event-record array value of a RESULT, which
// pduwire has validated, leniently as pminfo does.
func refResultEvents(v pduwire.ValueData) []EventRecord {
	blk := make([]byte, 4, 4+len(v.Payload))
	binary.BigEndian.PutUint32(blk, uint32(v.BlockType)<<24|uint32(len(v.Payload)+4))
	a, err := eventrec.Parse(append(blk, v.Payload...), eventrec.Options{Type: v.BlockType, Lenient: true})
	if err != nil {
		return []EventRecord{}
	}
	return eventRecords(a)
}

// checkResultPath compares AppendPDU and decodeBody's RESULT body with
// the reference on every PDU of stream in; it returns how many RESULTs
// it compared.
func checkResultPath(t *testing.T, name string, in []byte) int {
	t.Helper()
	n := 0
	for p, err := range pduwire.All(in, pduwire.Options{}) {
		if err != nil {
			break
		}
		want, werr := refAppendPDU(nil, p)
		got, gerr := AppendPDU(nil, "", p)
		if !sameError(gerr, werr) || !bytes.Equal(got, want) {
			t.Errorf("%s: PDU at %d: got %x, %v\nwant %x, %v", name, p.Offset, got, gerr, want, werr)
			continue
		}
		if t := p.Header.Type; t != pduwire.TypeResult && t != pduwire.TypeHighResResult {
			continue
		}
		n++
		if werr != nil {
			continue
		}
		body, err := decodeBody(p.Header.Type, p.Bytes)
		if err != nil {
			t.Fatalf("%s: decodeBody: %v", name, err)
		}
		m := pduwire.ResultPDU{HighRes: p.Header.Type == pduwire.TypeHighResResult}
		_ = m.UnmarshalBinary(p.Bytes)
		gb, _ := body.MarshalMsg(nil)
		wb, _ := refResultBody(&m).MarshalMsg(nil)
		if !bytes.Equal(gb, wb) {
			t.Errorf("%s: RESULT body at %d: got %x\nwant %x", name, p.Offset, gb, wb)
		}
	}
	return n
}

// TestResultPathCaptures: every RESULT of pmcd's recorded conversations
// (sample PMDA values of every type, event arrays of both kinds) and
// libpcp's 1,000-value RESULTs.
func TestResultPathCaptures(t *testing.T) {
	files, _ := filepath.Glob("../../pduwire/testdata/captures/conv*.bin")
	more, _ := filepath.Glob("../testdata/conv*.bin")
	files = append(files, more...)
	files = append(files, "../../bench/testdata/result-1000.bin", "../../bench/testdata/result-1000-highres.bin",
		"../../bench/testdata/pmcd-fetch50.server.bin")
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
			want, werr := refAppendPDU(nil, q)
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
	more, _ := filepath.Glob("../testdata/conv05.pdu0.*.bin")
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
	files, _ := filepath.Glob("../testdata/conv05.pdu0.*.bin")
	if len(files) != 4 {
		t.Fatalf("%d event arrays", len(files))
	}
	m := NewModule()
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
			h := m.Keep(in)
			if got := m.Call(OpEventsDecode, h, 0); !bytes.Equal(got, want[len("prefix"):]) {
				t.Fatalf("%s, byte %d flipped: events_decode differs from DecodeEvents", f, i)
			}
			m.Free(h)
		}
	}
}
