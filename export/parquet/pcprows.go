package parquet

// PCPValue is a row of pcp_values: one recorded value. Exactly one of
// the value columns is set, the one of the descriptor's type: 32- and
// 64-bit signed integers in value_int64, unsigned in value_uint64, float
// and double in value_double, strings in value_string.
//
// value_double is BYTE_STREAM_SPLIT-encoded: its bytes go out as eight
// streams, the sign-and-exponent bytes of neighbouring values together,
// which zstd shrinks where the doubles' PLAIN bytes resist it.
type PCPValue struct {
	Host       string            `parquet:"host,dict"`
	Archive    string            `parquet:"archive,dict"`
	Timestamp  int64             `parquet:"timestamp,timestamp(nanosecond:local),delta"`
	Metric     string            `parquet:"metric,dict"`
	PMID       string            `parquet:"pmid,dict"`
	Inst       *int32            `parquet:"inst,optional"`
	Instance   *string           `parquet:"instance,optional,dict"`
	Int64      *int64            `parquet:"value_int64,optional"`
	Uint64     *uint64           `parquet:"value_uint64,optional"`
	Double     *float64          `parquet:"value_double,optional,split"`
	String     *string           `parquet:"value_string,optional,dict"`
	Rate       *float64          `parquet:"rate,optional"`
	Type       string            `parquet:"type,dict"`
	Semantics  string            `parquet:"semantics,dict"`
	Units      string            `parquet:"units,dict"`
	Labels     map[string]string `parquet:"labels" parquet-key:",dict" parquet-value:",dict"`
	LabelsJSON string            `parquet:"labels_json,dict,json"`

	// The storage the pointer fields point into, so that a row needs no
	// allocation of its own (see table.next).
	inst     int32
	instance string
	i64      int64
	u64      uint64
	f64      float64
	str      string
	rate     float64
}

// PCPMetric is a row of pcp_metrics: one metric descriptor of an archive.
type PCPMetric struct {
	Host      string   `parquet:"host,dict"`
	Archive   string   `parquet:"archive,dict"`
	Timestamp int64    `parquet:"timestamp,timestamp(nanosecond:local),delta"` // the archive's start
	Metric    string   `parquet:"metric,dict"`
	Names     []string `parquet:"names,list"`
	PMID      string   `parquet:"pmid,dict"`
	Type      string   `parquet:"type,dict"`
	InDom     string   `parquet:"indom,dict"`
	Semantics string   `parquet:"semantics,dict"`
	Units     string   `parquet:"units,dict"`
	OneLine   string   `parquet:"help_oneline,dict"`
	Help      string   `parquet:"help,dict"`
}

// PCPInstance is a row of pcp_instances: one instance of an instance
// domain as a .meta record gives the domain from Timestamp on.
type PCPInstance struct {
	Host      string `parquet:"host,dict"`
	Archive   string `parquet:"archive,dict"`
	Timestamp int64  `parquet:"timestamp,timestamp(nanosecond:local),delta"`
	InDom     string `parquet:"indom,dict"`
	Inst      int32  `parquet:"inst"`
	Instance  string `parquet:"instance,dict"`
	Delta     bool   `parquet:"delta"` // recorded as a change (v3 delta record)
}

// rowFixed estimates the bytes of a row's fixed-size columns with their
// levels and dictionary indexes.
const rowFixed = 64

func (r *PCPValue) estimate() int64 {
	n := int64(rowFixed + len(r.Host) + len(r.Archive) + len(r.Metric) + len(r.PMID) + len(r.instance) + len(r.str) + len(r.LabelsJSON))
	return n
}

func (r *PCPMetric) estimate() int64 {
	return int64(rowFixed + len(r.Metric)*(1+len(r.Names)) + len(r.OneLine) + len(r.Help))
}

func (r *PCPInstance) estimate() int64 { return int64(rowFixed + len(r.Instance) + len(r.Host)) }
