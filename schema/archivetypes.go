package schema

//go:generate go tool msgp -io=false -tests=false -file archivetypes.go -o archivetypes_gen.go
//go:generate go run ./internal/encgen -file archivetypes.go

// The archive schema: one data record of a PCP archive, as `perfwire
// archive --json` prints it, one JSON line per record.

// ArchiveRecord is one data record. A mark record (a gap in the
// recording) has mark and no values.
type ArchiveRecord struct {
	_ noCompare

	Timestamp string         `msg:"timestamp"` // RFC 3339, UTC, nanoseconds
	Mark      bool           `msg:"mark,omitempty"`
	Values    []ArchiveValue `msg:"values,omitempty"`
}

// ArchiveValue is one instance's value of one metric. inst is -1 for a
// singular metric. value is a number or a string by the metric's type;
// event arrays are records and aggregates hex, as in Value. A metric that
// failed in this record has error (PCP's message) and no value. counter
// marks a metric whose descriptor's semantics are PM_SEM_COUNTER (a
// cumulative count, which pmval and pmchart show as a rate); it is the one
// part of the descriptor a host needs to draw the values as pmchart does.
type ArchiveValue struct {
	_ noCompare

	PMID     string        `msg:"pmid"`
	Name     string        `msg:"name"`
	Inst     int32         `msg:"inst"`
	Instance *string       `msg:"instance,omitempty"` // the instance's name, when the domain has it
	Counter  bool          `msg:"counter,omitempty"`
	Value    *Raw          `msg:"value,omitempty"`
	Records  []EventRecord `msg:"records,omitempty"`
	Hex      *string       `msg:"hex,omitempty"`
	Error    string        `msg:"error,omitempty"`
}

// ArchiveInput is archive_open's input: an archive's files (BASE.meta,
// BASE.index, BASE.0, ...: the role is the name's suffix), decompressed.
type ArchiveInput struct {
	_ noCompare

	Names []string `msg:"names"`
	Files [][]byte `msg:"files"`
}

// ArchiveRead is archive_next's result: the next data records, each an
// ArchiveRecord as `perfwire archive --json` prints it; how many records
// have been passed over so far for being earlier than the one before
// them; whether the reading is over; and, once it is, the damage that
// stopped it (after the records before it) or why the archive could not
// be opened. The first batch of an archive that opened also lists every
// metric its .meta describes, and every label set of its label records
// in the .meta's order, each an array [ns, type, ident, inst, json].
//
// A label record holds the label sets of one object from a time on: ns
// is that time (ns since the epoch), type its level (PM_LABEL_*: 1 the
// context, 2 a domain, 4 an instance domain, 8 a cluster, 16 an item, 32
// an instance domain's instances), ident the object's number as the
// .meta has it (the domain, the pmInDom, the pmID: a cluster's with item
// 0; 0xffffffff for the context). The sets of one record are
// consecutive; an instances record has one per instance (inst), the
// others one (-1). json is the set's JSONB text as recorded, "" for
// none. An array of fixed-width numbers rather than a map: a Go wasm
// module pays for each call its encoder makes, and the archive module
// is held to its budget.
type ArchiveRead struct {
	_ noCompare

	Error   *Error          `msg:"error"`
	Records []Raw           `msg:"records"`
	Skipped int             `msg:"skipped"`
	Done    bool            `msg:"done"`
	Metrics []ArchiveMetric `msg:"metrics,omitempty"`
	Labels  []Raw           `msg:"labels,omitempty"`
}

// ArchiveMetric is one metric of an archive's .meta: its first name (its
// pmID when it has none), its descriptor's pmid, type, indom and sem as a
// DESC PDU's desc has them, its units as the pmUnits word (pcp.Units:
// the text is left to hosts, module size), and its help text where the .meta carries it (PCP 6 v3
// archives can): what a host needs to label a chart and convert a
// counter's rates as pmval does.
type ArchiveMetric struct {
	_ noCompare

	PMID    string `msg:"pmid"`
	Name    string `msg:"name"`
	Type    string `msg:"type"`
	InDom   string `msg:"indom"`
	Sem     string `msg:"sem"`
	PMUnits uint32 `msg:"pmunits"`
	OneLine string `msg:"oneline,omitempty"`
	Help    string `msg:"help,omitempty"`
}
