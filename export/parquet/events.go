package parquet

import (
	"encoding/binary"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// PCPEvent is a row of pcp_events: one parameter of one event record of
// an event-type value (a record without parameters, or a missed-records
// marker, has one row with no parameter).
type PCPEvent struct {
	Host      string   `parquet:"host,dict"`
	Archive   string   `parquet:"archive,dict"`
	Timestamp int64    `parquet:"timestamp,timestamp(nanosecond:local),delta"` // the data record's time
	Metric    string   `parquet:"metric,dict"`
	PMID      string   `parquet:"pmid,dict"`
	Inst      *int32   `parquet:"inst,optional"`
	Instance  *string  `parquet:"instance,optional,dict"`
	Record    int32    `parquet:"record"` // the event record's place in its array, from 0
	EventTime int64    `parquet:"event_time,timestamp(nanosecond:local)"`
	Flags     int64    `parquet:"flags"`
	FlagsText string   `parquet:"flags_text,dict"`
	Missed    *int64   `parquet:"missed,optional"` // a missed-records marker's count
	Param     *string  `parquet:"param,optional,dict"`
	ParamPMID *string  `parquet:"param_pmid,optional,dict"`
	Int64     *int64   `parquet:"value_int64,optional"`
	Uint64    *uint64  `parquet:"value_uint64,optional"`
	Double    *float64 `parquet:"value_double,optional"`
	String    *string  `parquet:"value_string,optional,dict"`
	Aggregate []byte   `parquet:"value_aggregate,optional"`

	inst                int32
	instance, par, ppid string
	missed, i64         int64
	u64                 uint64
	f64                 float64
	str                 string
}

func (r *PCPEvent) estimate() int64 { return int64(rowFixed + 64 + len(r.str)) }

// events writes the rows of one event-type value.
func (x *pcpExport) events(p *parts[PCPEvent], d *descInfo, in *archive.Instances, v pduwire.Value, ns int64) error {
	arr, err := v.Events()
	if err != nil {
		return nil // pmdumplog prints nothing of an array it cannot unpack
	}
	i := int32(0)
	for rec := range arr.Records() {
		head := func() (*PCPEvent, error) {
			r, err := p.next(x.host, ns)
			if err != nil {
				return nil, err
			}
			r.Host, r.Archive, r.Timestamp, r.Metric, r.PMID = x.host, x.name, ns, d.name, d.pmid
			if d.m.InDom != pcp.InDomNull {
				r.inst, r.Inst = v.Inst, &r.inst
				if in != nil {
					if name, ok := in.Name(v.Inst); ok {
						r.instance, r.Instance = validString(name), &r.instance
					}
				}
			}
			r.Record, r.EventTime = i, rec.Seconds()*1e9+rec.Nanoseconds()
			r.Flags, r.FlagsText = int64(rec.Flags()), rec.Flags().String()
			return r, nil
		}
		n, missed := rec.Missed()
		if missed || rec.NumParams() == 0 {
			r, err := head()
			if err != nil {
				return err
			}
			if missed {
				r.missed, r.Missed = int64(n), &r.missed
			}
			if err := p.done(r); err != nil {
				return err
			}
			i++
			continue
		}
		for par := range rec.Params() {
			r, err := head()
			if err != nil {
				return err
			}
			r.ppid, r.ParamPMID = par.ID.String(), &r.ppid
			if m, ok := x.a.Meta.Metric(par.ID); ok {
				r.par, r.Param = mainName(m.Names), &r.par
			}
			setParam(r, par)
			if err := p.done(r); err != nil {
				return err
			}
		}
		i++
	}
	return nil
}

// setParam sets the value column of a parameter's type. 32-bit integers
// travel in the value word, the rest as a value block, as libpcp unpacks
// them.
func setParam(r *PCPEvent, par eventrec.Param) {
	raw := pcp.Raw{Block: par.Value}
	if (par.Type == pcp.Type32 || par.Type == pcp.TypeU32) && len(par.Value) == 4 {
		raw = pcp.Raw{Insitu: true, Word: binary.BigEndian.Uint32(par.Value)}
	}
	if par.Type == pcp.TypeAggregate || par.Type == pcp.TypeAggregateStatic {
		r.Aggregate = append([]byte{}, par.Value...)
		return
	}
	a, err := pcp.Extract(raw, par.Type, par.Type)
	if err != nil {
		return
	}
	setValue(par.Type, a, valueCols{&r.i64, &r.Int64, &r.u64, &r.Uint64, &r.f64, &r.Double, &r.str, &r.String})
}
