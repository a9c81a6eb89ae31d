package fuzz

import (
	"bytes"
	"math"
	"strconv"
	"testing"

	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/labels"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"sigs.k8s.io/randfill"
)

// genParam is one generated event parameter; Kind picks its type.
type genParam struct {
	Item uint16
	Kind uint8
	I    uint64
	F    float64
	S    []byte
}

// genRecord is one generated event record; Missed makes it a
// missed-record marker of N lost records.
type genRecord struct {
	Sec, Frac int64
	Missed    bool
	N         int32
	Flags     uint8
	Params    []genParam
}

// genLabel is one generated label; Kind picks its JSON type.
type genLabel struct {
	Name string
	Kind uint8
	I    int64
	S    string
}

// genStream is what the structured target fills from the fuzzer's
// bytes: one RESULT whose value sets are event arrays, and one LABEL PDU.
type genStream struct {
	HighRes bool
	Sec     int64
	Nsec    int64
	Arrays  [][]genRecord
	Sets    [][]genLabel
}

// paramTypes are the types Kind selects among.
var paramTypes = [...]pcp.Type{pcp.Type32, pcp.TypeU32, pcp.Type64, pcp.TypeU64, pcp.TypeFloat, pcp.TypeDouble, pcp.TypeString, pcp.TypeAggregate}

// buildArray encodes recs as one event array of type typ.
func buildArray(t *testing.T, typ pcp.Type, recs []genRecord) []byte {
	fracMax := int64(1_000_000)
	if typ == pcp.TypeHighResEvent {
		fracMax = 1_000_000_000
	}
	b := eventrec.NewBuilder(nil, typ)
	for _, r := range recs {
		frac := r.Frac % fracMax
		if frac < 0 {
			frac = -frac
		}
		sec := r.Sec
		if typ == pcp.TypeEvent {
			sec = int64(int32(sec)) // 32-bit seconds on the wire
		}
		if r.Missed {
			b.AddMissed(sec, frac, r.N&math.MaxInt32)
			continue
		}
		b.AddRecord(sec, frac, eventrec.Flags(r.Flags)&(eventrec.FlagPoint|eventrec.FlagStart|eventrec.FlagEnd|eventrec.FlagID|eventrec.FlagParent))
		for _, p := range r.Params {
			id := pcp.NewID(29, 0, uint32(p.Item)&1023)
			switch paramTypes[int(p.Kind)%len(paramTypes)] {
			case pcp.Type32:
				b.AddInt32(id, int32(p.I))
			case pcp.TypeU32:
				b.AddUint32(id, uint32(p.I))
			case pcp.Type64:
				b.AddInt64(id, int64(p.I))
			case pcp.TypeU64:
				b.AddUint64(id, p.I)
			case pcp.TypeFloat:
				b.AddFloat32(id, float32(p.F))
			case pcp.TypeDouble:
				b.AddFloat64(id, p.F)
			case pcp.TypeString:
				b.AddString(id, string(p.S))
			default:
				b.AddAggregate(id, p.S)
			}
		}
	}
	out, err := b.Finish()
	if err != nil {
		t.Fatalf("builder refuses generated records: %v", err)
	}
	return out
}

// labelName turns a generated name into a Classic label name.
func labelName(s string, i int) string {
	b := []byte{'l'}
	for _, c := range []byte(s) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' {
			b = append(b, c)
		}
		if len(b) > 40 {
			break
		}
	}
	return string(strconv.AppendInt(append(b, '_'), int64(i), 10))
}

// buildSet encodes gl as one canonical label set.
func buildSet(t *testing.T, gl []genLabel) labels.Set {
	var b labels.Builder
	for i, l := range gl {
		name := labelName(l.Name, i)
		switch l.Kind % 5 {
		case 0:
			b.Int(name, l.I)
		case 1:
			b.String(name, l.S)
		case 2:
			b.Bool(name, l.I&1 == 1)
		case 3:
			b.Null(name)
		default:
			f := math.Float64frombits(uint64(l.I))
			if math.IsNaN(f) || math.IsInf(f, 0) {
				f = 0
			}
			b.Float(name, f)
		}
	}
	var s labels.Set
	if err := b.Finish(&s); err != nil {
		mustBeParseError(t, "labels.Builder", err)
		return labels.Set{}
	}
	return s
}

// FuzzPMCDGenerated fills a genStream from the fuzzer's bytes (so
// coverage guidance still steers it), encodes it as a RESULT of event
// arrays and a LABEL PDU with the SDK's builders, runs the stream checks,
// and compares what comes back with what was generated.
func FuzzPMCDGenerated(f *testing.F) {
	f.Add([]byte("perfwire"))
	f.Add(bytes.Repeat([]byte{0x5a, 0x01, 0xff, 0x80}, 64))
	f.Fuzz(func(t *testing.T, data []byte) {
		var g genStream
		randfill.NewFromGoFuzz(data).NilChance(0).NumElements(0, 6).MaxDepth(6).Fill(&g)
		typ := pcp.TypeEvent
		rt := pduwire.ResultPDU{HighRes: g.HighRes, Sec: g.Sec, Nsec: g.Nsec % 1_000_000_000}
		if rt.Nsec < 0 {
			rt.Nsec = -rt.Nsec
		}
		if g.HighRes {
			typ = pcp.TypeHighResEvent
		} else {
			rt.Sec = int64(int32(rt.Sec))
			rt.Nsec -= rt.Nsec % 1000
		}
		var arrays [][]byte
		for i, recs := range g.Arrays {
			arr := buildArray(t, typ, recs)
			arrays = append(arrays, arr)
			rt.Sets = append(rt.Sets, pduwire.ValueSetData{
				PMID:   pcp.NewID(29, 0, uint32(136+i)),
				ValFmt: pduwire.ValDPTR,
				Values: []pduwire.ValueData{{Inst: pcp.InNull, BlockType: typ, Payload: arr[4:]}},
			})
		}
		lp := pduwire.LabelPDU{Ident: uint32(pcp.NewID(29, 0, 1)), Kind: pduwire.LabelItem}
		var sets []labels.Set
		for i, gl := range g.Sets {
			s := buildSet(t, gl)
			if s.Len() == 0 {
				continue
			}
			sets = append(sets, s)
			ls := pduwire.LabelSet{Inst: int32(i), NLabels: int32(s.Len()), JSON: s.JSON}
			for _, l := range s.Index {
				ls.Labels = append(ls.Labels, pduwire.LabelEntry{Name: l.NameOff, NameLen: l.NameLen, Flags: uint8(l.Flags), Value: l.ValueOff, ValueLen: l.ValueLen})
			}
			lp.Sets = append(lp.Sets, ls)
		}
		stream := rt.Append(nil, 0)
		stream = lp.Append(stream, 0)
		if n := checkStream(t, stream); n != 2 {
			t.Fatalf("generated stream frames into %d PDUs", n)
		}

		// Values survive the trip.
		s := pduwire.NewScanner(stream, pduwire.Options{MaxPDULen: streamLimit})
		s.Next()
		r, err := pduwire.ParseResult(s.PDU().Bytes)
		if err != nil {
			t.Fatal(err)
		}
		if r.Sec != rt.Sec || r.Nsec != rt.Nsec || r.NumPMID != len(arrays) {
			t.Fatalf("RESULT header: %d.%d, %d sets; want %d.%d, %d", r.Sec, r.Nsec, r.NumPMID, rt.Sec, rt.Nsec, len(arrays))
		}
		i := 0
		for vs := range r.ValueSets() {
			v := vs.Value(0)
			if !bytes.Equal(v.Payload(), arrays[i][4:]) {
				t.Fatalf("event array %d changed on the wire", i)
			}
			a, err := eventrec.Parse(arrays[i], eventrec.Options{})
			if err != nil {
				t.Fatalf("strict parse of a built array: %v", err)
			}
			if a.Len() != len(g.Arrays[i]) {
				t.Fatalf("array %d: %d records, generated %d", i, a.Len(), len(g.Arrays[i]))
			}
			checkEventArray(t, a, false)
			i++
		}
		s.Next()
		var got pduwire.LabelPDU
		if err := got.UnmarshalBinary(s.PDU().Bytes); err != nil {
			t.Fatal(err)
		}
		if len(got.Sets) != len(sets) {
			t.Fatalf("%d label sets, sent %d", len(got.Sets), len(sets))
		}
		for i := range got.Sets {
			var index []byte
			for _, e := range got.Sets[i].Labels {
				index = labels.AppendLabel(index, labels.Label{NameOff: e.Name, NameLen: e.NameLen, Flags: labels.Flags(e.Flags), ValueOff: e.Value, ValueLen: e.ValueLen})
			}
			var back labels.Set
			if err := back.DecodeWire(got.Sets[i].JSON, index, labels.VerifyStrict); err != nil {
				t.Fatalf("label set %s does not decode strictly: %v", got.Sets[i].JSON, err)
			}
			if !back.Equal(&sets[i]) {
				t.Fatalf("label set changed:\n%s\n%s", back.JSON, sets[i].JSON)
			}
		}
	})
}
