package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/pmapi"
	"github.com/perfwire/perfwire/schema"
)

// valInst is one column: an instance number and its name.
type valInst struct {
	id   int32
	name string
}

// pmvalRun holds one pm val session.
type pmvalRun struct {
	p      *pmPrinter
	o      pmvalOpts
	id     pcp.ID
	desc   pduwire.Desc
	cols   int
	scale  float64 // counter rates: seconds to the metric's time unit
	insts  []valInst
	style  int // -1 until the labels are first printed
	errOut io.Writer
	src    valSource
	arch   *archiveVal // nil for a live pmcd
}

// valSource is where pm val and archive val get metrics from: a live
// pmcd or an archive in interpolation mode.
type valSource interface {
	lookupMetric(name string) (pcp.ID, pcp.Desc, error)
	lookupInDom(indom pcp.InDom, name string) (int32, error)
	getInDom(indom pcp.InDom) ([]pmapi.Instance, error)
	fetch(id pcp.ID) (pduwire.Result, error)
}

// liveSource is a pmcd through pmapi.
type liveSource struct{ p *pmPrinter }

func (l liveSource) lookupMetric(name string) (pcp.ID, pcp.Desc, error) {
	ids, err := l.p.c.LookupName(l.p.ctx, name)
	if err != nil {
		return 0, pcp.Desc{}, err
	}
	d, err := l.p.c.LookupDesc(l.p.ctx, ids[0])
	return ids[0], d, err
}

func (l liveSource) lookupInDom(indom pcp.InDom, name string) (int32, error) {
	return l.p.c.LookupInDom(l.p.ctx, indom, name)
}

func (l liveSource) getInDom(indom pcp.InDom) ([]pmapi.Instance, error) {
	return l.p.c.GetInDom(l.p.ctx, indom)
}

func (l liveSource) fetch(id pcp.ID) (pduwire.Result, error) { return l.p.c.Fetch(l.p.ctx, id) }

func (p *pmPrinter) val(args []string, host string) error {
	o, err := parsePMValArgs(args, p.json)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(p.w, pmValUsage)
		return nil
	}
	if err != nil {
		return err
	}
	r := &pmvalRun{p: p, o: o, style: -1, errOut: os.Stderr, src: liveSource{p}}
	return r.run(host)
}

func (r *pmvalRun) run(host string) error {
	var err error
	if r.id, r.desc, err = r.src.lookupMetric(r.o.metric); err != nil {
		return fmt.Errorf("%s: %w", r.o.metric, err)
	}
	d := r.desc
	if d.InDom == pcp.InDomNull && r.o.insts != nil {
		return fmt.Errorf("%s: singular metrics do not have instances", r.o.metric)
	}
	if d.Type == pcp.TypeEvent || d.Type == pcp.TypeHighResEvent {
		return usagef("pm val: %s is an event metric; use perfwire pm fetch", r.o.metric)
	}
	r.cols = r.o.width
	if r.cols == 0 {
		r.cols = columnWidth(d.Type)
	}
	if (r.o.fixed == 0 && r.o.fixed > r.cols) || (r.o.fixed > 0 && r.o.fixed > r.cols-2) {
		return usagef("pm val: -f %d too large for column width %d", r.o.fixed, r.cols)
	}
	r.scale = 1
	if d.Sem == pcp.SemCounter && d.Units.DimTime() != 0 {
		// Rates of time counters are utilizations: the interval in the
		// counter's own time unit.
		st := int(d.Units.ScaleTime())
		if st > int(pcp.TimeSec) {
			r.scale = math.Pow(60, float64(int(pcp.TimeSec)-st))
		} else {
			r.scale = math.Pow(1000, float64(int(pcp.TimeSec)-st))
		}
	}
	if err := r.loadInstances(); err != nil {
		return err
	}
	if !r.o.json {
		if r.arch == nil {
			host = r.hostname(host)
		}
		r.header(host)
	}
	if err := r.loop(); err != nil && err != errWindowEnd {
		return err
	}
	return nil
}

// hostname asks pmcd for its host name, as pmGetContextHostName does,
// falling back to the address.
func (r *pmvalRun) hostname(host string) string {
	c, ctx := r.p.c, r.p.ctx
	ids, err := c.LookupName(ctx, "pmcd.hostname")
	if err != nil {
		return host
	}
	res, err := c.Fetch(ctx, ids...)
	if err != nil {
		return host
	}
	for vs := range res.ValueSets() {
		if vs.Len() == 1 {
			a, err := pcp.Extract(vs.Value(0).Raw(), pcp.TypeString, pcp.TypeString)
			if err == nil && len(a.Bytes()) > 0 {
				return string(a.Bytes())
			}
		}
	}
	return host
}

// loadInstances fills the columns: the named instances, or every
// instance of the domain, sorted by number.
func (r *pmvalRun) loadInstances() error {
	d := r.desc
	r.insts = r.insts[:0]
	if d.InDom == pcp.InDomNull {
		return nil
	}
	if r.o.insts != nil {
		for _, name := range r.o.insts {
			id, err := r.src.lookupInDom(d.InDom, name)
			if err != nil {
				return fmt.Errorf("instance %s not available", name)
			}
			r.insts = append(r.insts, valInst{id, name})
		}
	} else {
		all, err := r.src.getInDom(d.InDom)
		if err != nil {
			return fmt.Errorf("pmGetInDom(%s): %w", d.InDom, err)
		}
		for _, in := range all {
			r.insts = append(r.insts, valInst{in.Inst, in.Name})
		}
	}
	slices.SortStableFunc(r.insts, func(a, b valInst) int { return int(min(max(int64(a.id)-int64(b.id), -1), 1)) })
	return nil
}

func (r *pmvalRun) header(host string) {
	w, d := r.p.w, r.desc
	if r.arch == nil {
		fmt.Fprintf(w, "\nmetric:    %s\n", r.o.metric)
		fmt.Fprintf(w, "host:      %s\n", host)
	} else {
		fmt.Fprintf(w, "metric:    %s\n", r.o.metric)
		r.arch.header(w, host)
	}
	sem := "unknown"
	switch d.Sem {
	case pcp.SemCounter:
		sem = "cumulative counter"
		if !r.o.raw {
			sem += " (converting to rate)"
		}
	case pcp.SemInstant:
		sem = "instantaneous value"
	case pcp.SemDiscrete:
		sem = "discrete instantaneous value"
	}
	fmt.Fprintf(w, "semantics: %s\n", sem)
	fmt.Fprintf(w, "units:     %s", unitsOrNone(d.Units))
	if !r.o.raw && d.Sem == pcp.SemCounter {
		// The rate's units: one time dimension less, seconds when the
		// counter had none.
		dimSpace, dimTime, dimCount := d.Units.DimSpace(), d.Units.DimTime(), d.Units.DimCount()
		scaleTime := d.Units.ScaleTime()
		if dimTime == 0 {
			scaleTime = pcp.TimeSec
		}
		dimTime--
		if dimSpace == 0 && dimTime == 0 && dimCount == 0 {
			fmt.Fprint(w, " (converting to time utilization)")
		} else {
			u := pcp.NewUnits(dimSpace, dimTime, dimCount, d.Units.ScaleSpace(), scaleTime, d.Units.ScaleCount())
			fmt.Fprintf(w, " (converting to %s)", unitsOrNone(u))
		}
	}
	fmt.Fprintln(w)
	if r.o.samples < 0 {
		fmt.Fprintln(w, "samples:   all")
	} else {
		fmt.Fprintf(w, "samples:   %d\n", r.o.samples)
	}
	if r.o.samples > 1 {
		fmt.Fprintf(w, "interval:  %1.2f sec\n", r.o.interval.Seconds())
	}
}

func unitsOrNone(u pcp.Units) string {
	if s := u.String(); s != "" {
		return s
	}
	return "none"
}

// columnWidth is pmval's default column width for a type.
func columnWidth(t pcp.Type) int {
	switch t {
	case pcp.Type32, pcp.TypeU32:
		return 11
	case pcp.TypeFloat:
		return 13
	}
	return 21
}

// sample is one fetch of the metric, owned by the caller.
type sample struct {
	time   float64 // seconds since the epoch
	valfmt uint8
	values []pduwire.ValueData // sorted by instance
}

// errWindowEnd stops the sampling loop at the end of the -T window.
var errWindowEnd = errors.New("end of the time window")

// fetchOnce returns the metric's values, or ok=false after printing
// what pmval prints when there are none; errWindowEnd for a result
// stamped after the -T window.
func (r *pmvalRun) fetchOnce() (sample, bool, error) {
	res, err := r.src.fetch(r.id)
	if errors.Is(err, archive.ErrEOL) {
		return sample{}, false, errWindowEnd
	}
	if err != nil {
		return sample{}, false, err
	}
	var rd pduwire.ResultPDU
	res.AppendTo(&rd)
	s := sample{time: float64(rd.Sec) + float64(rd.Nsec)/1e9}
	if r.o.finish != 0 && s.time > r.o.finish {
		return s, false, errWindowEnd
	}
	if len(rd.Sets) != 1 {
		return s, false, fmt.Errorf("pmFetch: %d value sets for one metric", len(rd.Sets))
	}
	vs := rd.Sets[0]
	if vs.NumVal < 0 {
		fmt.Fprintf(r.errOut, "\nperfwire pm val: pmFetch: %s\n", pcp.Code(vs.NumVal).Message())
		return s, false, nil
	}
	if len(vs.Values) == 0 {
		if r.o.json {
			r.p.emit(&schema.PMValSample{Timestamp: stamp(s.time), Metric: r.o.metric, Values: []schema.PMValInstant{}})
		} else {
			r.timestamp(s.time, "  ")
			fmt.Fprintln(r.p.w, "No values available")
		}
		return s, false, nil
	}
	s.valfmt = vs.ValFmt
	s.values = slices.Clone(vs.Values)
	for i := range s.values {
		s.values[i].Payload = slices.Clone(s.values[i].Payload)
	}
	slices.SortStableFunc(s.values, func(a, b pduwire.ValueData) int {
		return int(min(max(int64(a.Inst)-int64(b.Inst), -1), 1))
	})
	return s, true, nil
}

func stamp(t float64) string {
	sec, frac := math.Modf(t)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC().Format(time.RFC3339Nano)
}

// loop is pmval's main loop: a counter needs two samples for a rate, so
// its first fetch only primes the previous value.
func (r *pmvalRun) loop() error {
	rates := !r.o.raw && r.desc.Sem == pcp.SemCounter
	var prev sample
	havePrev, noValues, reporting := false, false, false
	for n := r.o.samples; r.o.samples < 0 || n > 0; n-- {
		if !havePrev {
			s, ok, err := r.fetchOnce()
			if err != nil {
				return err
			}
			if ok {
				prev, havePrev = s, true
				if r.desc.InDom != pcp.InDomNull {
					r.labels()
				}
				if !rates {
					r.timestamp(s.time, "")
					r.values(s)
					reporting = true
					continue
				}
				if (noValues || reporting) && !r.o.json {
					r.timestamp(s.time, "  ")
					fmt.Fprintln(r.p.w, "No values available")
				}
				noValues = false
			} else {
				noValues = true
			}
		}
		if r.arch == nil {
			select {
			case <-r.p.ctx.Done():
				return nil
			case <-time.After(r.o.interval):
			}
		}
		if !havePrev {
			continue
		}
		cur, ok, err := r.fetchOnce()
		if err != nil {
			return err
		}
		if !ok {
			havePrev = false
			continue
		}
		if r.o.insts == nil && !r.known(cur) {
			if err := r.loadInstances(); err != nil {
				return err
			}
			r.labels()
		}
		r.timestamp(cur.time, "")
		if rates {
			r.rates(cur, prev)
		} else {
			r.values(cur)
		}
		reporting = true
		prev = cur
	}
	return nil
}

// timestamp starts an archive sample's line with its time, as pmval
// does for archives (nothing for a live pmcd or in JSON).
func (r *pmvalRun) timestamp(t float64, after string) {
	if r.arch == nil || r.o.json {
		return
	}
	sec, frac := math.Modf(t)
	tm := time.Unix(int64(sec), 0).In(r.arch.loc)
	fmt.Fprintf(r.p.w, "%02d:%02d:%02d.%03d%s", tm.Hour(), tm.Minute(), tm.Second(), int(frac*1000+1e-6), after)
}

// known reports whether every instance in s has a column.
func (r *pmvalRun) known(s sample) bool {
	if r.desc.InDom == pcp.InDomNull {
		return true
	}
	for _, v := range s.values {
		if r.column(v.Inst) < 0 {
			return false
		}
	}
	return true
}

func (r *pmvalRun) column(inst int32) int {
	for i, in := range r.insts {
		if in.id == inst {
			return i
		}
	}
	return -1
}

// labels prints the instance names over their columns. Names too wide
// for a column are first listed in full, once.
func (r *pmvalRun) labels() {
	if r.o.json {
		return
	}
	w := r.p.w
	if r.style == -1 {
		r.style = 0
		for _, in := range r.insts {
			if len(in.name) > r.cols {
				r.style = 2
				break
			}
			if len(in.name) > r.cols-3 {
				r.style = 1
			}
		}
		if r.style == 2 {
			for i, in := range r.insts {
				fmt.Fprintf(w, "full label for instance[%d]: %s\n", i, in.name)
			}
		}
	}
	fmt.Fprintln(w)
	shift := !r.o.raw && r.desc.Sem == pcp.SemCounter && r.style == 0 && r.o.fixed == -1
	if r.arch != nil && len(r.insts) > 0 {
		fmt.Fprintf(w, "%12s", "") // over the timestamps of archive lines
	}
	for _, in := range r.insts {
		if shift {
			// Rates have decimals: names sit three places left.
			fmt.Fprintf(w, "%*.*s    ", r.cols-3, r.cols-3, in.name)
		} else {
			fmt.Fprintf(w, "%*.*s ", r.cols, r.cols, in.name)
		}
	}
	if len(r.insts) > 0 {
		fmt.Fprintln(w)
	}
}

// values prints one sample of an instant or discrete metric (or a raw
// counter).
func (r *pmvalRun) values(s sample) {
	if r.o.json {
		r.emitSample(s, nil)
		return
	}
	r.line(func(pick picker) (string, bool) {
		v, ok := pick(s.values)
		if !ok {
			return "", false
		}
		return r.format(s.valfmt, v, r.cols), true
	}, func(b *strings.Builder) {
		for _, v := range s.values {
			if r.column(v.Inst) < 0 {
				fmt.Fprintf(b, "Warning: value=%s, but instance=%d is unknown\n", r.format(s.valfmt, v, 1), v.Inst)
			}
		}
	})
}

// rates prints the rates between two samples of a counter.
func (r *pmvalRun) rates(cur, prev sample) {
	delta := r.scale * (cur.time - prev.time)
	if r.o.json {
		r.emitSample(cur, func(v pduwire.ValueData) schema.Raw {
			if p, ok := find(prev.values, v.Inst); ok {
				if x, ok := r.rate(cur.valfmt, v, p, delta); ok && x >= 0 {
					return jsonFloat(x, 64)
				}
			}
			return nil
		})
		return
	}
	r.line(func(pick picker) (string, bool) {
		v, ok1 := pick(cur.values)
		p, ok2 := pick(prev.values)
		if !ok1 || !ok2 {
			return "", false
		}
		return r.rateText(cur.valfmt, v, p, delta, r.cols), true
	}, func(b *strings.Builder) {
		// pmval warns only where the unknown instance sits at the same
		// position in both samples.
		for j, v := range cur.values {
			if r.column(v.Inst) < 0 && j < len(prev.values) && prev.values[j].Inst == v.Inst {
				fmt.Fprintf(b, "Warning: value=%s, but instance=%d is unknown\n",
					r.rateText(cur.valfmt, v, prev.values[j], delta, 1), v.Inst)
			}
		}
	})
}

// A picker finds the value of one column among a sample's values.
type picker func([]pduwire.ValueData) (pduwire.ValueData, bool)

// line prints one line of a sample: the singular value, or a column per
// instance each followed by a space, with "?" where cell has no value;
// then, when -i did not choose the instances, the warnings warn writes
// for values no column shows. cell formats the value pick finds.
func (r *pmvalRun) line(cell func(pick picker) (string, bool), warn func(*strings.Builder)) {
	var b strings.Builder
	put := func(pick picker) {
		if c, ok := cell(pick); ok {
			b.WriteString(c)
		} else {
			fmt.Fprintf(&b, "%*s", r.cols, "?")
		}
	}
	if r.desc.InDom == pcp.InDomNull {
		put(func(vals []pduwire.ValueData) (pduwire.ValueData, bool) {
			if len(vals) == 1 {
				return vals[0], true
			}
			return pduwire.ValueData{}, false
		})
		b.WriteByte('\n')
	} else {
		for _, in := range r.insts {
			put(func(vals []pduwire.ValueData) (pduwire.ValueData, bool) { return find(vals, in.id) })
			b.WriteByte(' ')
		}
		b.WriteByte('\n')
		if r.o.insts == nil {
			warn(&b)
		}
	}
	io.WriteString(r.p.w, b.String())
}

func find(vals []pduwire.ValueData, inst int32) (pduwire.ValueData, bool) {
	for _, v := range vals {
		if v.Inst == inst {
			return v, true
		}
	}
	return pduwire.ValueData{}, false
}

func (r *pmvalRun) raw(valfmt uint8, v pduwire.ValueData) pcp.Raw {
	return pcp.Raw{Insitu: valfmt == pduwire.ValInsitu, Word: v.Word, Block: v.Payload}
}

// rate is (cur - prev) / delta. A counter that went backwards gives a
// negative rate (printed "!") unless PCP_COUNTER_WRAP asks for pmval's
// wrap correction; ok is false when a value cannot be read as a number.
func (r *pmvalRun) rate(valfmt uint8, cur, prev pduwire.ValueData, delta float64) (v float64, ok bool) {
	a, err1 := pcp.Extract(r.raw(valfmt, cur), r.desc.Type, pcp.TypeDouble)
	b, err2 := pcp.Extract(r.raw(valfmt, prev), r.desc.Type, pcp.TypeDouble)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	v = a.Float64() - b.Float64()
	if _, wrap := os.LookupEnv("PCP_COUNTER_WRAP"); v < 0 && wrap {
		switch r.desc.Type {
		case pcp.Type32, pcp.TypeU32:
			v += math.MaxUint32 + 1
		case pcp.Type64, pcp.TypeU64:
			v += math.MaxUint64 + 1
		}
	}
	return v / delta, true
}

func (r *pmvalRun) rateText(valfmt uint8, cur, prev pduwire.ValueData, delta float64, width int) string {
	v, ok := r.rate(valfmt, cur, prev, delta)
	if !ok {
		return fmt.Sprintf("%*s", width, "?")
	}
	return realText(v, pcp.SemCounter, width, r.o.fixed)
}

// emitSample prints one sample as a JSON object: the value of each
// instance, or the rate that rate computes.
func (r *pmvalRun) emitSample(s sample, rate func(pduwire.ValueData) schema.Raw) {
	values := make([]schema.PMValInstant, 0, len(s.values))
	for _, v := range s.values {
		name, inst := "", int64(-1)
		if r.desc.InDom != pcp.InDomNull {
			c := r.column(v.Inst)
			if c < 0 {
				continue
			}
			name, inst = r.insts[c].name, int64(v.Inst)
		}
		var val schema.Raw
		if rate != nil {
			val = rate(v)
		} else {
			_, val = formatValue(r.raw(s.valfmt, v), r.desc.Type)
		}
		values = append(values, schema.PMValInstant{Inst: inst, Name: name, Value: val})
	}
	r.p.emit(&schema.PMValSample{Timestamp: stamp(s.time), Metric: r.o.metric, Values: values})
}
