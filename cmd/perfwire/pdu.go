package main

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// runPDU decodes files holding raw PCP PDU byte streams (such as one
// direction of a captured pmcd conversation) and prints one JSON object
// per PDU: offset, len, type, from and the decoded body. On malformed
// input it prints what decoded and fails with the file and byte offset.
func runPDU(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("pdu", flag.ContinueOnError)
	fs.SetOutput(stdout)
	limit := fs.Int("limit", pduwire.DefaultClientLimit, "largest PDU accepted, in bytes")
	fs.Usage = func() {
		io.WriteString(stdout, "usage: perfwire pdu [-limit N] FILE...\n\n"+
			"Decodes raw streams of PCP PDUs and prints one JSON object per PDU.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usagef("%v", err)
	}
	if fs.NArg() == 0 {
		return usagef("usage: perfwire pdu [-limit N] FILE...")
	}
	if *limit <= 0 || *limit > pduwire.MaxLimit {
		return usagef("-limit must be between 1 and %d", pduwire.MaxLimit)
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	for _, file := range fs.Args() {
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		name := ""
		if fs.NArg() > 1 {
			name = file
		}
		if err := dumpPDUs(w, name, data, *limit); err != nil {
			return &inputError{file, err}
		}
	}
	return nil
}

// dumpPDUs frames and decodes one stream, writing a JSON line per PDU.
// Decode errors are returned with their offset made absolute.
func dumpPDUs(w *bufio.Writer, file string, data []byte, limit int) error {
	s := pduwire.NewSplitter(data, limit)
	for s.Next() {
		p := s.PDU()
		o := obj{}
		if file != "" {
			o = o.add("file", file)
		}
		o = o.add("offset", p.Offset).add("len", p.Header.Len).add("type", p.Header.Type.String()).add("from", p.Header.From)
		m := pduwire.New(p.Header.Type)
		var derr error
		if m == nil {
			o = o.add("body_hex", hex.EncodeToString(p.Bytes[pduwire.HeaderLen:]))
		} else if derr = m.UnmarshalBinary(p.Bytes); derr == nil {
			o = append(o, body(m)...)
		}
		if derr != nil {
			if pe, ok := errors.AsType[*pduwire.ParseError](derr); ok {
				abs := *pe
				abs.Offset += p.Offset
				abs.Field = p.Header.Type.String() + " PDU at offset " + strconv.FormatInt(p.Offset, 10) + ": " + pe.Field
				derr = &abs
			}
			return derr
		}
		b, err := json.Marshal(o)
		if err != nil {
			return err
		}
		w.Write(b)
		w.WriteByte('\n')
	}
	return s.Err()
}

// obj is a JSON object that keeps its keys in insertion order.
type obj []kv

type kv struct {
	k string
	v any
}

func (o obj) add(k string, v any) obj { return append(o, kv{k, v}) }

// MarshalJSON writes the keys in order.
func (o obj) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, e := range o {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, e.k)
		b = append(b, ':')
		v, err := json.Marshal(e.v)
		if err != nil {
			return nil, err
		}
		b = append(b, v...)
	}
	return append(b, '}'), nil
}

func ids(in []pcp.ID) []string {
	out := make([]string, len(in))
	for i, id := range in {
		out[i] = id.String()
	}
	return out
}

func hex32(v uint32) string { return "0x" + strconv.FormatUint(uint64(v), 16) }

var typeNames = map[pcp.Type]string{
	pcp.TypeNoSupport: "nosupport", pcp.Type32: "32", pcp.TypeU32: "u32", pcp.Type64: "64", pcp.TypeU64: "u64",
	pcp.TypeFloat: "float", pcp.TypeDouble: "double", pcp.TypeString: "string", pcp.TypeAggregate: "aggregate",
	pcp.TypeAggregateStatic: "aggregate_static", pcp.TypeEvent: "event", pcp.TypeHighresEvent: "highres_event",
	pcp.TypeUnknown: "unknown",
}

func typeName(t pcp.Type) string {
	if n, ok := typeNames[t]; ok {
		return n
	}
	return strconv.Itoa(int(t))
}

var semNames = map[pcp.Sem]string{pcp.SemCounter: "counter", pcp.SemInstant: "instant", pcp.SemDiscrete: "discrete"}

func desc(d pduwire.Desc) obj {
	sem := semNames[d.Sem]
	if sem == "" {
		sem = strconv.Itoa(int(d.Sem))
	}
	return obj{}.add("pmid", d.ID.String()).add("type", typeName(d.Type)).add("indom", d.InDom.String()).
		add("sem", sem).add("units", d.Units.String())
}

// number renders a float so that JSON can carry NaN and infinities.
func number(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return f
}

// value renders one RESULT value with its wire format and, for blocks,
// the block's type and decoded payload.
func value(v pduwire.ValueData, fmt uint8) obj {
	o := obj{}.add("inst", v.Inst)
	if fmt == pduwire.ValInsitu {
		return o.add("fmt", "insitu").add("value", int32(v.Word))
	}
	o = o.add("fmt", map[uint8]string{1: "dptr", 2: "sptr"}[fmt]).add("type", typeName(v.BlockType))
	p := v.Payload
	switch {
	case v.BlockType == pcp.Type64 && len(p) == 8:
		return o.add("value", int64(binary.BigEndian.Uint64(p)))
	case v.BlockType == pcp.TypeU64 && len(p) == 8:
		return o.add("value", binary.BigEndian.Uint64(p))
	case v.BlockType == pcp.TypeDouble && len(p) == 8:
		return o.add("value", number(math.Float64frombits(binary.BigEndian.Uint64(p))))
	case v.BlockType == pcp.TypeFloat && len(p) == 4:
		return o.add("value", number(float64(math.Float32frombits(binary.BigEndian.Uint32(p)))))
	case v.BlockType == pcp.TypeString:
		return o.add("value", strings.TrimSuffix(string(p), "\x00"))
	case v.BlockType == pcp.TypeEvent || v.BlockType == pcp.TypeHighresEvent:
		return o.add("records", events(v))
	}
	return o.add("hex", hex.EncodeToString(p))
}

// events decodes an event-record array value into its records; the
// RESULT was validated by pduwire, so parsing cannot fail here.
func events(v pduwire.ValueData) []obj {
	blk := binary.BigEndian.AppendUint32(nil, uint32(v.BlockType)<<24|uint32(len(v.Payload)+4))
	a, err := eventrec.ParseOptions(append(blk, v.Payload...), eventrec.Options{Type: v.BlockType, Lenient: true})
	if err != nil {
		return []obj{obj{}.add("error", err.Error())}
	}
	recs := []obj{}
	for r := range a.Records() {
		o := obj{}.add("sec", r.Seconds()).add("nsec", r.Nanoseconds()).add("flags", r.Flags().String())
		if n, ok := r.Missed(); ok {
			recs = append(recs, o.add("missed", n))
			continue
		}
		params := []obj{}
		for p := range r.Params() {
			params = append(params, obj{}.add("pmid", p.ID.String()).add("type", typeName(p.Type)).add("value", paramValue(p)))
		}
		recs = append(recs, o.add("params", params))
	}
	return recs
}

// paramValue is an event parameter as a JSON value of its type.
func paramValue(p eventrec.Param) any {
	switch p.Type {
	case pcp.Type32:
		v, _ := p.Int32()
		return v
	case pcp.TypeU32:
		v, _ := p.Uint32()
		return v
	case pcp.Type64:
		v, _ := p.Int64()
		return v
	case pcp.TypeU64:
		v, _ := p.Uint64()
		return v
	case pcp.TypeFloat:
		v, _ := p.Float32()
		return number(float64(v))
	case pcp.TypeDouble:
		v, _ := p.Float64()
		return number(v)
	case pcp.TypeString:
		v, _ := p.Text()
		return string(v)
	}
	return hex.EncodeToString(p.Value)
}

// body returns the decoded fields of m with snake_case names.
func body(m pduwire.Message) obj {
	o := obj{}
	switch m := m.(type) {
	case *pduwire.ErrorPDU:
		o = o.add("code", m.Code)
		if m.Extended {
			f := pduwire.Features(m.Datum)
			o = o.add("datum", hex32(m.Datum)).add("handshake_status", int32(pcp.FromV1(m.Code))).
				add("version", f.Version()).add("features", hex32(uint32(f.Flags())))
		}
	case *pduwire.ResultData:
		o = o.add("sec", m.Sec).add("nsec", m.Nsec).add("numpmid", len(m.Sets))
		sets := []obj{}
		for _, vs := range m.Sets {
			s := obj{}.add("pmid", vs.PMID.String()).add("numval", vs.NumVal)
			if len(vs.Values) > 0 {
				vals := []obj{}
				for _, v := range vs.Values {
					vals = append(vals, value(v, vs.ValFmt))
				}
				s = s.add("valfmt", vs.ValFmt).add("values", vals)
			}
			sets = append(sets, s)
		}
		o = o.add("value_sets", sets)
	case *pduwire.Profile:
		es := []obj{}
		for _, e := range m.Entries {
			es = append(es, obj{}.add("indom", e.InDom.String()).add("state", e.State).add("insts", append([]int32{}, e.Insts...)))
		}
		o = o.add("ctx", m.Ctx).add("state", m.State).add("entries", es)
	case *pduwire.Fetch:
		o = o.add("ctx", m.Ctx).add("pmids", ids(m.PMIDs))
	case *pduwire.DescReq:
		o = o.add("pmid", m.PMID.String())
	case *pduwire.DescPDU:
		o = o.add("desc", desc(m.Desc))
	case *pduwire.Descs:
		ds := []obj{}
		for _, d := range m.Descs {
			ds = append(ds, desc(d))
		}
		o = o.add("descs", ds)
	case *pduwire.DescIDs:
		o = o.add("pmids", ids(m.PMIDs))
	case *pduwire.InstanceReq:
		o = o.add("indom", m.InDom.String()).add("inst", m.Inst).add("name", string(m.Name))
	case *pduwire.Instance:
		is := []obj{}
		for _, e := range m.Instances {
			is = append(is, obj{}.add("inst", e.Inst).add("name", string(e.Name)))
		}
		o = o.add("indom", m.InDom.String()).add("instances", is)
	case *pduwire.TextReq:
		o = o.add("ident", hex32(m.Ident)).add("kind", m.Kind)
	case *pduwire.Text:
		o = o.add("ident", hex32(m.Ident)).add("text", string(m.Text))
	case *pduwire.Creds:
		cs := []obj{}
		for _, c := range m.Creds {
			cs = append(cs, obj{}.add("type", c.Kind()).add("version", c.Version()).add("flags", hex32(uint32(c.Flags()))))
		}
		o = o.add("creds", cs)
	case *pduwire.PMNSIDs:
		o = o.add("status", m.Status).add("pmids", ids(m.PMIDs))
	case *pduwire.PMNSNames:
		names := []string{}
		for _, n := range m.Names {
			names = append(names, string(n))
		}
		o = o.add("status", m.Status).add("names", names)
		if m.Statuses != nil {
			o = o.add("statuses", append([]int32{}, m.Statuses...))
		}
	case *pduwire.PMNSChild:
		o = o.add("subtype", m.Subtype).add("name", string(m.Name))
	case *pduwire.Attr:
		o = o.add("attr", m.Attr).add("value", string(m.Value))
	case *pduwire.LabelReq:
		o = o.add("ident", hex32(m.Ident)).add("kind", m.Kind)
	case *pduwire.Label:
		sets := []obj{}
		for _, s := range m.Sets {
			ls := []obj{}
			for _, l := range s.Labels {
				ls = append(ls, obj{}.add("name", string(s.JSON[l.Name:int(l.Name)+int(l.NameLen)])).
					add("value", string(s.JSON[l.Value:int(l.Value)+int(l.ValueLen)])).add("flags", l.Flags))
			}
			sets = append(sets, obj{}.add("inst", s.Inst).add("nlabels", s.NLabels).add("json", string(s.JSON)).add("labels", ls))
		}
		o = o.add("ident", hex32(m.Ident)).add("kind", m.Kind).add("sets", sets)
	case *pduwire.LogRequest:
		o = o.add("request", m.Request)
	case *pduwire.LogControl:
		ms := []obj{}
		for _, lm := range m.Metrics {
			vs := []obj{}
			for _, v := range lm.Values {
				vs = append(vs, obj{}.add("inst", v.Inst).add("value", v.Value))
			}
			ms = append(ms, obj{}.add("pmid", lm.PMID.String()).add("numval", lm.NumVal).add("values", vs))
		}
		o = o.add("control", m.Control).add("state", m.State).add("delta_ms", m.Delta).add("metrics", ms)
	case *pduwire.LogStatusV2:
		o = o.add("start", logTime(m.Start)).add("last", logTime(m.Last)).add("now", logTime(m.Now)).
			add("state", m.State).add("vol", m.Vol).add("size", m.Size).add("host", cstr(m.Host[:])).
			add("fqdn", cstr(m.FQDN[:])).add("pmcd_tz", cstr(m.PMCDTZ[:])).add("logger_tz", cstr(m.LoggerTZ[:]))
	case *pduwire.LogStatus:
		ss := []string{}
		for _, s := range m.Strings {
			ss = append(ss, cstr(s))
		}
		o = o.add("start", logTime(m.Start)).add("last", logTime(m.Last)).add("now", logTime(m.Now)).
			add("state", m.State).add("vol", m.Vol).add("size", m.Size).add("strings", ss)
	}
	return o
}

func logTime(t pduwire.LogTime) obj { return obj{}.add("sec", t.Sec).add("frac", t.Frac) }

// cstr stops a NUL-terminated byte string at its first NUL.
func cstr(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\x00")
	return s
}
