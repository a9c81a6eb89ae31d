package parquet

import (
	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/pcp"
)

// MMVValue is a row of mmv_values: one value entry of an MMV file, as
// mmvdump prints it. Exactly one value column is set, by the metric's
// type (ELAPSED in value_int64); none when a file with the sentinel flag
// marks the value missing. value_double is BYTE_STREAM_SPLIT-encoded as
// pcp_values' is.
type MMVValue struct {
	Host       string   `parquet:"host,dict"`
	File       string   `parquet:"file,dict"`
	Timestamp  int64    `parquet:"timestamp,timestamp(nanosecond:local),delta"`
	Generation uint64   `parquet:"generation"`
	PID        int32    `parquet:"pid"`
	Cluster    int32    `parquet:"cluster"`
	Metric     string   `parquet:"metric,dict"`
	Item       int32    `parquet:"item"`
	Inst       *int32   `parquet:"inst,optional"`
	Instance   *string  `parquet:"instance,optional,dict"`
	Int64      *int64   `parquet:"value_int64,optional"`
	Uint64     *uint64  `parquet:"value_uint64,optional"`
	Double     *float64 `parquet:"value_double,optional,split"`
	String     *string  `parquet:"value_string,optional,dict"`
	Type       string   `parquet:"type,dict"`
	Semantics  string   `parquet:"semantics,dict"`
	Units      string   `parquet:"units,dict"`

	// The storage the pointer fields point into (see table.next).
	inst     int32
	instance string
	i64      int64
	u64      uint64
	f64      float64
	str      string
}

func (r *MMVValue) estimate() int64 {
	return int64(rowFixed + len(r.Host) + len(r.File) + len(r.Metric) + len(r.instance) + len(r.str))
}

// MMV writes mmv_values: every value entry of the file f, values of
// metrics pmdammv would refuse included, as mmvdump prints them. name
// is the file column, host the host column and partition, ns the time
// the values are taken as read (the file's modification time, for a
// file on disk); an open ELAPSED interval is counted up to it.
func (o *Output) MMV(f *mmv.File, name, host string, ns int64) (int64, error) {
	if !o.d.wants(TableMMVValues) {
		return 0, nil
	}
	p := newParts(o, TableMMVValues, (*MMVValue).estimate)
	h := f.Header()
	for i := range f.NumValues() {
		v := f.Value(i)
		if v.Metric < 0 {
			continue
		}
		m := f.Metric(v.Metric)
		r, err := p.next(host, ns)
		if err != nil {
			return p.rows(), err
		}
		*r = MMVValue{Host: host, File: name, Timestamp: ns, Generation: h.Gen1, PID: h.Process, Cluster: h.Cluster,
			Metric: validString(string(m.Name)), Item: int32(m.Item), Type: mmvTypeText(m.Type), Semantics: mmvSemText(m.Sem),
			Units: unitsText(m.Units)}
		if v.Instance >= 0 {
			in := f.Instance(v.Instance)
			r.inst, r.instance = in.ID, validString(string(in.Name))
			r.Inst, r.Instance = &r.inst, &r.instance
		}
		if !v.Missing() {
			setMMVValue(r, v, ns/1e3)
		}
		if err := p.done(r); err != nil {
			return p.rows(), err
		}
	}
	return p.rows(), nil
}

// setMMVValue sets the value column of v's type.
func setMMVValue(r *MMVValue, v mmv.Value, nowMicros int64) {
	switch v.Type {
	case mmv.TypeI32, mmv.TypeI64:
		r.i64, r.Int64 = v.Int(), &r.i64
	case mmv.TypeElapsed:
		r.i64, r.Int64 = v.Elapsed(nowMicros), &r.i64
	case mmv.TypeU32, mmv.TypeU64:
		r.u64, r.Uint64 = v.Uint(), &r.u64
	case mmv.TypeFloat, mmv.TypeDouble:
		r.f64, r.Double = v.Float(), &r.f64
	case mmv.TypeString:
		r.str, r.String = validString(string(v.Text())), &r.str
	}
}

// mmvTypeText names an MMV type as pcp_values names PCP's, and ELAPSED
// (which pmdammv serves as a 64-bit counter) as itself.
func mmvTypeText(t mmv.Type) string {
	if t == mmv.TypeElapsed {
		return "ELAPSED"
	}
	return pcp.Type(t).String()
}

// mmvSemText names a metric's semantics; 0, which pmdammv exports as a
// counter, is a counter.
func mmvSemText(s pcp.Sem) string {
	if s == 0 {
		return pcp.SemCounter.String()
	}
	return s.String()
}
