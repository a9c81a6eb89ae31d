package parquet

import (
	"path/filepath"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// Archive writes the tables of one PCP archive into o: pcp_metrics and
// pcp_instances from its metadata, pcp_values from its data volumes,
// read a record at a time. name is the archive column (its base name);
// host the host column and partition (the label's host name if empty).
//
// A damaged volume ends the values at the damage: the rows before it are
// written, and the scanner's error, which names the file and the byte
// offset, is returned with the counts. The caller decides whether to
// Commit what was written.
func (o *Output) Archive(a *archive.Archive, name, host string) (rows int64, err error) {
	if host == "" {
		host = a.Label.Hostname
	}
	if name == "" {
		name = filepath.Base(a.Label.Hostname)
	}
	x := pcpExport{o: o, a: a, host: host, name: name, start: stampNS(a.Label.Start)}
	if o.d.wants(TablePCPMetrics) {
		n, err := x.metrics()
		rows += n
		if err != nil {
			return rows, err
		}
	}
	if o.d.wants(TablePCPInstances) {
		n, err := x.instances()
		rows += n
		if err != nil {
			return rows, err
		}
	}
	if o.d.wants(TablePCPValues) || o.d.wants(TablePCPEvents) {
		n, err := x.values()
		rows += n
		if err != nil {
			return rows, err
		}
	}
	return rows, nil
}

// pcpExport is the state of one archive's export.
type pcpExport struct {
	o     *Output
	a     *archive.Archive
	host  string
	name  string
	start int64

	descs  map[pcp.ID]*descInfo
	labels *labelIndex
	prev   map[seriesKey]sample // Options.Rates: each series' last value

	toldRows int64 // rows reported to Progress
	ev       *parts[PCPEvent]
}

// descInfo is what every row of a metric repeats, formatted once.
type descInfo struct {
	m     *archive.Metric
	name  string
	pmid  string
	typ   string
	sem   string
	units string
	// rateScale converts a counter's change per second into its rate's
	// unit: 1, except for counters of time, whose rate pmval reports as
	// utilisation (seconds per second).
	rateScale float64
}

// secondsPer is how many seconds each PM_TIME_* scale is.
var secondsPer = [...]float64{1e-9, 1e-6, 1e-3, 1, 60, 3600}

func rateScale(u pcp.Units) float64 {
	if u.DimTime() == 1 && u.DimSpace() == 0 && u.DimCount() == 0 && int(u.ScaleTime()) < len(secondsPer) {
		return secondsPer[u.ScaleTime()]
	}
	return 1
}

type seriesKey struct {
	pmid pcp.ID
	inst int32
}

type sample struct {
	ns int64
	v  float64
}

func stampNS(t archive.Timestamp) int64 { return t.Sec*1e9 + int64(t.Nsec) }

func (x *pcpExport) desc(id pcp.ID) *descInfo {
	if d, ok := x.descs[id]; ok {
		return d
	}
	if x.descs == nil {
		x.descs = map[pcp.ID]*descInfo{}
	}
	m, ok := x.a.Meta.Metric(id)
	if !ok {
		x.descs[id] = nil
		return nil
	}
	d := &descInfo{m: m, pmid: id.String(), typ: m.Type.String(), sem: m.Sem.String(), units: unitsText(m.Units)}
	d.name = mainName(m.Names)
	d.rateScale = rateScale(m.Units)
	x.descs[id] = d
	return d
}

// mainName picks the metric column of a metric with several names (the
// sample PMDA's dupnames): the shortest, then the first in byte order, so
// that every export of every archive names it the same. pcp_metrics lists
// them all.
func mainName(names []string) string {
	best := ""
	for i, n := range names {
		if i == 0 || len(n) < len(best) || len(n) == len(best) && n < best {
			best = n
		}
	}
	return best
}

// unitsText is pminfo's units text, "none" for dimensionless.
func unitsText(u pcp.Units) string {
	if s := u.String(); s != "" {
		return s
	}
	return "none"
}

func (x *pcpExport) metrics() (int64, error) {
	p := newParts(x.o, TablePCPMetrics, (*PCPMetric).estimate)
	for i := range x.a.Meta.Metrics {
		m := &x.a.Meta.Metrics[i]
		d := x.desc(m.ID)
		r, err := p.next(x.host, x.start)
		if err != nil {
			return p.rows(), err
		}
		*r = PCPMetric{Host: x.host, Archive: x.name, Timestamp: x.start, Metric: d.name, Names: m.Names,
			PMID: d.pmid, Type: d.typ, InDom: m.InDom.String(), Semantics: d.sem, Units: d.units}
		r.OneLine, _ = x.a.Meta.Text(archive.TextOneLine|archive.TextPMID, uint32(m.ID))
		r.Help, _ = x.a.Meta.Text(archive.TextHelp|archive.TextPMID, uint32(m.ID))
		if err := p.done(r); err != nil {
			return p.rows(), err
		}
	}
	return p.rows(), nil
}

func (x *pcpExport) instances() (int64, error) {
	p := newParts(x.o, TablePCPInstances, (*PCPInstance).estimate)
	for i := range x.a.Meta.InDoms {
		in := &x.a.Meta.InDoms[i]
		dom := in.InDom.String()
		ns := stampNS(in.Time)
		for j, inst := range in.Inst {
			r, err := p.next(x.host, ns)
			if err != nil {
				return p.rows(), err
			}
			*r = PCPInstance{Host: x.host, Archive: x.name, Timestamp: ns, InDom: dom, Inst: inst, Instance: validString(in.Names[j]), Delta: in.Delta}
			if err := p.done(r); err != nil {
				return p.rows(), err
			}
		}
	}
	return p.rows(), nil
}

func (x *pcpExport) values() (int64, error) {
	p := newParts(x.o, TablePCPValues, (*PCPValue).estimate)
	if x.o.d.wants(TablePCPEvents) {
		x.ev = newParts(x.o, TablePCPEvents, (*PCPEvent).estimate)
	}
	x.labels = newLabelIndex(x.a.Meta)
	if x.o.d.Rates {
		x.prev = map[seriesKey]sample{}
	}
	s := x.a.NewScanner()
	var read, told, vol, before int64 // input bytes read, and told to Progress
	for s.Next() {
		rec := s.Record()
		if x.o.Progress != nil {
			if int64(rec.Vol) != vol {
				size, _ := x.a.VolumeSize(int32(vol))
				before += size
				vol = int64(rec.Vol)
			}
			read = before + rec.Offset
			if n := x.rows(p); read-told >= 1<<20 {
				x.o.Progress(n-x.toldRows, read-told)
				told, x.toldRows = read, n
			}
		}
		if rec.Mark {
			// Values either side of a gap are not joined: no rate
			// spans it.
			clear(x.prev)
			continue
		}
		if err := x.record(p, rec); err != nil {
			return x.rows(p), err
		}
	}
	rows := x.rows(p)
	if x.o.Progress != nil {
		total := x.a.MetaSize()
		for _, v := range x.a.Volumes() {
			size, _ := x.a.VolumeSize(int32(v))
			total += size
		}
		x.o.Progress(rows-x.toldRows, total-told)
	}
	return rows, s.Err()
}

// rows counts the rows of pcp_values and pcp_events.
func (x *pcpExport) rows(p *parts[PCPValue]) int64 {
	n := p.rows()
	if x.ev != nil {
		n += x.ev.rows()
	}
	return n
}

// record writes the values of one data record.
func (x *pcpExport) record(p *parts[PCPValue], rec *archive.Record) error {
	ns := stampNS(rec.Time)
	epoch := x.labels.epoch(rec.Time)
	vss := rec.Result.Scan()
	for vss.Next() {
		vs := vss.ValueSet()
		if vs.NumVal <= 0 {
			continue // no values, or an error code for the metric
		}
		d := x.desc(vs.PMID)
		if d == nil || d.m.Type == pcp.TypeAggregate || d.m.Type == pcp.TypeAggregateStatic {
			continue
		}
		var in *archive.Instances
		if d.m.InDom != pcp.InDomNull {
			in, _ = x.a.Meta.InDomAt(d.m.InDom, rec.Time)
		}
		if d.m.Type == pcp.TypeEvent || d.m.Type == pcp.TypeHighResEvent {
			if x.ev != nil {
				for j := range vs.Len() {
					if err := x.events(x.ev, d, in, vs.Value(j), ns); err != nil {
						return err
					}
				}
			}
			continue
		}
		if !x.o.d.wants(TablePCPValues) {
			continue
		}
		for j := range vs.Len() {
			v := vs.Value(j)
			a, err := pcp.Extract(v.Raw(), d.m.Type, d.m.Type)
			if err != nil {
				continue // a value that does not hold its type: nothing to write
			}
			r, err := p.next(x.host, ns)
			if err != nil {
				return err
			}
			x.fill(r, d, in, v, a, ns, epoch)
			if err := p.done(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// fill sets every column of r; its pointer fields point into r.
func (x *pcpExport) fill(r *PCPValue, d *descInfo, in *archive.Instances, v pduwire.Value, a pcp.Atom, ns int64, epoch int) {
	r.Host, r.Archive, r.Timestamp = x.host, x.name, ns
	r.Metric, r.PMID, r.Type, r.Semantics, r.Units = d.name, d.pmid, d.typ, d.sem, d.units
	inst := v.Inst
	if d.m.InDom != pcp.InDomNull {
		r.inst, r.Inst = inst, &r.inst
		if in != nil {
			if name, ok := in.Name(inst); ok {
				r.instance, r.Instance = validString(name), &r.instance
			}
		}
	} else {
		inst = pcp.InNull
	}
	f := setValue(d.m.Type, a, valueCols{&r.i64, &r.Int64, &r.u64, &r.Uint64, &r.f64, &r.Double, &r.str, &r.String})
	if x.prev != nil && d.m.Sem == pcp.SemCounter && r.String == nil {
		k := seriesKey{d.m.ID, inst}
		if last, ok := x.prev[k]; ok && ns > last.ns && f >= last.v {
			r.rate, r.Rate = (f-last.v)/(float64(ns-last.ns)/1e9)*d.rateScale, &r.rate
		}
		x.prev[k] = sample{ns, f}
	}
	r.LabelsJSON, r.Labels = x.labels.merged(d.m, inst, epoch)
}

// valueCols are a row's four value columns and the storage in the row
// each points into when set.
type valueCols struct {
	i64 *int64
	I64 **int64
	u64 *uint64
	U64 **uint64
	f64 *float64
	F64 **float64
	str *string
	Str **string
}

// setValue sets the value column of type t to a, and returns the value
// as a float (0 for a string), for rates.
func setValue(t pcp.Type, a pcp.Atom, c valueCols) float64 {
	switch t {
	case pcp.Type32:
		*c.i64, *c.I64 = int64(a.Int32()), c.i64
		return float64(*c.i64)
	case pcp.Type64:
		*c.i64, *c.I64 = a.Int64(), c.i64
		return float64(*c.i64)
	case pcp.TypeU32:
		*c.u64, *c.U64 = uint64(a.Uint32()), c.u64
		return float64(*c.u64)
	case pcp.TypeU64:
		*c.u64, *c.U64 = a.Uint64(), c.u64
		return float64(*c.u64)
	case pcp.TypeFloat:
		*c.f64, *c.F64 = float64(a.Float32()), c.f64
		return *c.f64
	case pcp.TypeDouble:
		*c.f64, *c.F64 = a.Float64(), c.f64
		return *c.f64
	case pcp.TypeString:
		*c.str, *c.Str = validText(a.Bytes()), c.str
	}
	return 0
}
