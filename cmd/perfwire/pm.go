package main

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/pmapi"
	"github.com/perfwire/perfwire/render"
	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

const pmUsage = `usage: perfwire pm [-h HOST] [--json] [--timeout D] COMMAND [ARGS]

commands:
  names [PREFIX]        leaf metric names below PREFIX (all when omitted)
  desc METRIC...        descriptors, as pminfo -d
  fetch METRIC...       current values, as pminfo -f
  labels METRIC...      merged labels of metrics and instances, as pminfo -l
  indom METRIC          the metric's instances
  text METRIC...        one-line and full help text, as pminfo -t -T
  store METRIC VALUE    store a value, as pmstore
  val [OPTIONS] METRIC  sample over time as pmval does (perfwire pm val --help)

HOST is host[:port] (default 127.0.0.1:44321), local: for the unix socket,
or a socket path. --json prints one JSON line per name, metric, instance
or sample, in the shared schema (schema/pmtypes.go): pmid, type, indom,
sem and units as the pdu command's desc; labels as json text.`

func runPM(args []string, stdout io.Writer) error {
	fs := quietFlags("pm")
	host := fs.String("h", "127.0.0.1:44321", "pmcd host[:port], local:, or socket path")
	asJSON := fs.Bool("json", false, "print JSON objects, one per line")
	timeout := fs.Duration("timeout", 10*time.Second, "per-request timeout")
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, pmUsage)
			return nil
		}
		return usagef("%s", pmUsage)
	}
	addr := *host
	if !strings.Contains(addr, ":") && !strings.HasPrefix(addr, "/") {
		addr += ":44321"
	}
	ctx := context.Background()
	c, err := pmapi.Dial(ctx, addr, pmapi.Options{Timeout: *timeout})
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", addr, err)
	}
	defer c.Close()
	p := &pmPrinter{c: c, ctx: ctx, w: stdout, json: *asJSON, out: jsonLines{w: stdout}, indoms: map[pcp.InDom]map[int32]string{}}
	cmd, rest := fs.Arg(0), fs.Args()[1:]
	switch cmd {
	case "names":
		if len(rest) > 1 {
			return usagef("pm names takes at most one PREFIX")
		}
		return p.done(p.names(strings.Join(rest, "")))
	case "desc", "fetch", "labels", "text":
		if len(rest) == 0 {
			return usagef("pm %s needs at least one METRIC", cmd)
		}
		return p.done(p.each(cmd, rest))
	case "indom":
		if len(rest) != 1 {
			return usagef("pm indom takes one METRIC")
		}
		return p.done(p.each(cmd, rest))
	case "val":
		return p.done(p.val(rest, addr))
	case "store":
		if len(rest) != 2 {
			return usagef("pm store takes METRIC VALUE")
		}
		return p.done(p.store(rest[0], rest[1]))
	}
	return usagef("unknown pm command %q\n%s", cmd, pmUsage)
}

type pmPrinter struct {
	c      *pmapi.Client
	ctx    context.Context
	w      io.Writer
	json   bool
	out    jsonLines // with json, the encoder of w
	indoms map[pcp.InDom]map[int32]string
	err    error // the first JSON output error
}

// emit writes v, a value of the shared schema, as one JSON line; the
// first failure is kept in p.err, which the command returns (see done).
func (p *pmPrinter) emit(v msgp.Marshaler) {
	if err := p.out.write(v); err != nil && p.err == nil {
		p.err = err
	}
}

// done is the command's error, else the first error emit met.
func (p *pmPrinter) done(err error) error {
	if err != nil {
		return err
	}
	return p.err
}

func (p *pmPrinter) names(prefix string) error {
	names, err := p.c.Traverse(p.ctx, prefix)
	if err != nil {
		return err
	}
	for _, n := range names {
		if p.json {
			p.emit(&schema.PMName{Name: n})
		} else {
			fmt.Fprintln(p.w, n)
		}
	}
	return nil
}

// each resolves the names (expanding non-leaf names like pminfo does) and
// runs one per-metric command.
func (p *pmPrinter) each(cmd string, args []string) error {
	var names []string
	for _, a := range args {
		leaves, err := p.c.Traverse(p.ctx, a)
		if err != nil {
			return fmt.Errorf("%s: %w", a, err)
		}
		names = append(names, leaves...)
	}
	ids, err := p.c.LookupName(p.ctx, names...)
	if err != nil {
		return err
	}
	descs, err := p.c.LookupDescs(p.ctx, ids...)
	if err != nil {
		return err
	}
	if cmd == "fetch" {
		// Instance names first: the FetchBuf result aliases the client's
		// receive buffer, which the next request reuses. A view, not
		// Fetch's copy: a reply may be as large as 64 MiB.
		for _, d := range descs {
			if d.ID != pcp.IDNull {
				if _, err := p.instances(d.InDom); err != nil {
					return err
				}
			}
		}
		res, err := p.c.FetchBuf(p.ctx, ids...)
		if err != nil {
			return err
		}
		var r pduwire.ResultPDU
		res.AppendTo(&r)
		return p.fetch(names, descs, &r)
	}
	for i, n := range names {
		d := descs[i]
		if d.ID == pcp.IDNull {
			fmt.Fprintf(p.w, "%s: no descriptor\n", n)
			continue
		}
		var err error
		switch cmd {
		case "desc":
			p.desc(n, d)
		case "labels":
			err = p.labels(n, d)
		case "text":
			err = p.text(n, d)
		case "indom":
			err = p.indom(n, d)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", n, err)
		}
	}
	return nil
}

func (p *pmPrinter) desc(name string, d pduwire.Desc) {
	if p.json {
		pd := render.NewPMDesc(name, d)
		p.emit(&pd)
		return
	}
	text := d.String()
	if d.Type == pcp.TypeNoSupport {
		// pminfo prints the whole descriptor where libpcp's pmPrintDesc
		// (pcp.Desc) stops after "Not Supported".
		full := d
		full.Type = pcp.Type32
		text = strings.Replace(full.String(), "32-bit int", "Not Supported", 1)
	}
	fmt.Fprintf(p.w, "\n%s\n%s", name, text)
}

func (p *pmPrinter) instances(indom pcp.InDom) (map[int32]string, error) {
	if m, ok := p.indoms[indom]; ok || indom == pcp.InDomNull {
		return m, nil
	}
	insts, err := p.c.GetInDom(p.ctx, indom)
	if err != nil {
		return nil, err
	}
	m := make(map[int32]string, len(insts))
	for _, in := range insts {
		m[in.Inst] = in.Name
	}
	p.indoms[indom] = m
	return m, nil
}

func (p *pmPrinter) indom(name string, d pduwire.Desc) error {
	insts, err := p.c.GetInDom(p.ctx, d.InDom)
	if err != nil {
		return err
	}
	if !p.json {
		fmt.Fprintf(p.w, "%s InDom: %s\n", name, d.InDom)
	}
	for _, in := range insts {
		if p.json {
			p.emit(&schema.PMInstance{Inst: in.Inst, Name: in.Name})
		} else {
			fmt.Fprintf(p.w, "    inst [%d or %q]\n", in.Inst, in.Name)
		}
	}
	return nil
}

func (p *pmPrinter) text(name string, d pduwire.Desc) error {
	one, err := p.c.LookupText(p.ctx, d.ID, false)
	if err != nil {
		return err
	}
	help, err := p.c.LookupText(p.ctx, d.ID, true)
	if err != nil {
		return err
	}
	if p.json {
		p.emit(&schema.PMText{Name: name, OneLine: one, Help: help})
		return nil
	}
	fmt.Fprintf(p.w, "\n%s [%s]\nHelp:\n%s\n", name, one, help)
	return nil
}

// labels prints the metric's merged labels and each instance's, as
// pminfo -l does.
func (p *pmPrinter) labels(name string, d pduwire.Desc) error {
	ml, err := p.c.MetricLabels(p.ctx, d)
	if err != nil {
		return err
	}
	var insts []pmapi.Instance
	if d.InDom != pcp.InDomNull {
		if insts, err = p.c.GetInDom(p.ctx, d.InDom); err != nil {
			return err
		}
	}
	if p.json {
		o := schema.PMLabels{Name: name, JSON: string(ml.Metric.JSON)}
		for _, in := range insts {
			o.Instances = append(o.Instances, schema.PMInstanceLabels{Inst: in.Inst, Name: in.Name, JSON: string(ml.ForInstance(in.Inst).JSON)})
		}
		p.emit(&o)
		return nil
	}
	fmt.Fprintf(p.w, "\n%s\n    labels %s\n", name, ml.Metric.JSON)
	for _, in := range insts {
		fmt.Fprintf(p.w, "    inst [%d or %q] labels %s\n", in.Inst, in.Name, ml.ForInstance(in.Inst).JSON)
	}
	return nil
}

// fetch prints a result whose instance domains are already cached.
func (p *pmPrinter) fetch(names []string, descs []pduwire.Desc, r *pduwire.ResultPDU) error {
	for i, vs := range r.Sets {
		name, d := names[i], descs[i]
		if vs.NumVal < 0 || len(vs.Values) == 0 {
			msg := "No value(s) available!"
			if vs.NumVal < 0 {
				msg = "Error: " + pcp.Code(vs.NumVal).Message()
			}
			if p.json {
				p.emit(&schema.PMFetch{Name: name, PMID: d.ID.String(), Type: render.TypeName(d.Type), Error: msg})
			} else {
				fmt.Fprintf(p.w, "\n%s\n    %s\n", name, msg)
			}
			continue
		}
		insts := p.indoms[d.InDom]
		if !p.json {
			fmt.Fprintf(p.w, "\n%s\n", name)
		}
		var values []schema.PMValue
		for _, v := range vs.Values {
			raw := pcp.Raw{Insitu: vs.ValFmt == pduwire.ValInsitu, Word: v.Word, Block: v.Payload}
			text, val := formatValue(raw, d.Type)
			if p.json {
				values = append(values, schema.PMValue{Inst: v.Inst, Value: val})
				continue
			}
			if d.InDom == pcp.InDomNull {
				fmt.Fprintf(p.w, "    value %s\n", text)
			} else {
				fmt.Fprintf(p.w, "    inst [%d or %q] value %s\n", v.Inst, insts[v.Inst], text)
			}
		}
		if p.json {
			p.emit(&schema.PMFetch{Name: name, PMID: d.ID.String(), Type: render.TypeName(d.Type), Values: values})
		}
	}
	return nil
}

// formatValue renders a value as pminfo -f does and as the schema's
// MessagePack value (PMValue's).
func formatValue(r pcp.Raw, t pcp.Type) (string, schema.Raw) {
	a, err := pcp.Extract(r, t, t)
	if err != nil {
		// The PM_ERR_* code's text alone, as libpcp's pmErrStr gives it.
		if c, ok := errors.AsType[pcp.Code](err); ok {
			return "<" + c.Error() + ">", nil
		}
		return "<" + err.Error() + ">", nil
	}
	switch t {
	case pcp.Type32:
		return strconv.FormatInt(int64(a.Int32()), 10), msgp.AppendInt32(nil, a.Int32())
	case pcp.TypeU32:
		return strconv.FormatUint(uint64(a.Uint32()), 10), msgp.AppendUint32(nil, a.Uint32())
	case pcp.Type64:
		return strconv.FormatInt(a.Int64(), 10), msgp.AppendInt64(nil, a.Int64())
	case pcp.TypeU64:
		return strconv.FormatUint(a.Uint64(), 10), msgp.AppendUint64(nil, a.Uint64())
	case pcp.TypeFloat:
		return strconv.FormatFloat(float64(a.Float32()), 'g', -1, 32), jsonFloat(float64(a.Float32()), 32)
	case pcp.TypeDouble:
		return strconv.FormatFloat(a.Float64(), 'g', -1, 64), jsonFloat(a.Float64(), 64)
	case pcp.TypeString:
		return strconv.Quote(string(a.Bytes())), msgp.AppendStringFromBytes(nil, a.Bytes())
	case pcp.TypeAggregate:
		return strconv.Quote(string(a.Bytes())) + " [" + hex.EncodeToString(a.Bytes()) + "]", msgp.AppendString(nil, hex.EncodeToString(a.Bytes()))
	}
	return "[" + hex.EncodeToString(r.Block) + "]", msgp.AppendString(nil, hex.EncodeToString(r.Block))
}

// jsonFloat is a float value of PMValue: NaN and infinities as strings,
// as the schema's Value has them; bits is 32 for a float.
func jsonFloat(f float64, bits int) schema.Raw {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return msgp.AppendString(nil, strconv.FormatFloat(f, 'g', -1, 64))
	case bits == 32:
		return msgp.AppendFloat32(nil, float32(f))
	}
	return msgp.AppendFloat64(nil, f)
}

func (p *pmPrinter) store(name, value string) error {
	ids, err := p.c.LookupName(p.ctx, name)
	if err != nil {
		return err
	}
	d, err := p.c.LookupDesc(p.ctx, ids[0])
	if err != nil {
		return err
	}
	if d.InDom != pcp.InDomNull {
		return usagef("pm store supports singular metrics only; %s has instance domain %s", name, d.InDom)
	}
	vd, err := parseStoreValue(d.Type, value)
	if err != nil {
		return usagef("%s (%s): %v", name, d.Type, err)
	}
	old, err := p.c.Fetch(p.ctx, ids[0])
	if err != nil {
		return err
	}
	// Format the old value now: the view dies with the next request.
	oldText := "?"
	for vs := range old.ValueSets() {
		if vs.Len() == 1 {
			v := vs.Value(0)
			oldText, _ = formatValue(v.Raw(), d.Type)
		}
	}
	vd.Inst = pcp.InNull
	fmtv := pduwire.ValInsitu
	if vd.BlockType != 0 || vd.Payload != nil {
		fmtv = pduwire.ValDPTR
	}
	if err := p.c.Store(p.ctx, []pduwire.ValueSetData{{PMID: ids[0], ValFmt: uint8(fmtv), Values: []pduwire.ValueData{vd}}}); err != nil {
		var se *pmapi.ServerError
		if errors.As(err, &se) {
			return fmt.Errorf("%s: %s", name, se.Code.Message())
		}
		return err
	}
	if p.json {
		p.emit(&schema.PMStore{Name: name, Old: oldText, New: value})
	} else {
		fmt.Fprintf(p.w, "%s old value=%s new value=%s\n", name, oldText, value)
	}
	return nil
}

// parseStoreValue encodes text as a value of type t, insitu for 32-bit
// integers and as a value block otherwise, as libpcp's pmStore does.
func parseStoreValue(t pcp.Type, s string) (pduwire.ValueData, error) {
	var v pduwire.ValueData
	switch t {
	case pcp.Type32:
		n, err := strconv.ParseInt(s, 0, 32)
		v.Word = uint32(n)
		return v, err
	case pcp.TypeU32:
		n, err := strconv.ParseUint(s, 0, 32)
		v.Word = uint32(n)
		return v, err
	case pcp.Type64, pcp.TypeU64, pcp.TypeDouble:
		var bits uint64
		var err error
		switch t {
		case pcp.Type64:
			var n int64
			n, err = strconv.ParseInt(s, 0, 64)
			bits = uint64(n)
		case pcp.TypeU64:
			bits, err = strconv.ParseUint(s, 0, 64)
		default:
			var f float64
			f, err = strconv.ParseFloat(s, 64)
			bits = math.Float64bits(f)
		}
		v.BlockType, v.Payload = t, binary.BigEndian.AppendUint64(nil, bits)
		return v, err
	case pcp.TypeFloat:
		f, err := strconv.ParseFloat(s, 32)
		v.BlockType, v.Payload = t, binary.BigEndian.AppendUint32(nil, math.Float32bits(float32(f)))
		return v, err
	case pcp.TypeString:
		v.BlockType, v.Payload = t, append([]byte(s), 0)
		return v, nil
	}
	return v, fmt.Errorf("cannot store values of type %s", t)
}
