package schema

//go:generate go tool msgp -io=false -tests=false -file mmvtypes.go -o mmvtypes_gen.go
//go:generate go run ./internal/encgen -file mmvtypes.go

// The served view of MMV files (AppendMMVServe), apart from types.go so that
// the modules that do not serve MMV files are built from unchanged
// generated code.

// MMVServe is the result of serving MMV files as pmdammv serves one
// directory of them (AppendMMVServe): what `perfwire mmv --json` prints and
// says. Files are in input order; Notes are the diagnostics for what
// pmdammv leaves out, in the order the CLI prints them on stderr; Error,
// when --strict refuses a file, says which and why.
type MMVServe struct {
	_ noCompare

	Error *Error      `msg:"error"`
	Files []MMVServed `msg:"files"`
	Notes []string    `msg:"notes"`
}

// MMVServed is one MMV file as pmdammv serves it; `perfwire mmv --json`
// prints one per line. Version, gen, flags, process and cluster are the
// header's, as in MMVFile; flag_names names the flags as mmvdump does.
// Metrics are those pmdammv exports; warnings say what it leaves out or
// merges.
type MMVServed struct {
	_ noCompare

	File      string            `msg:"file"`
	Version   int32             `msg:"version"`
	Gen       uint64            `msg:"gen"`
	Flags     uint32            `msg:"flags"`
	FlagNames string            `msg:"flag_names"`
	Process   int32             `msg:"process"`
	Cluster   int32             `msg:"cluster"`
	Metrics   []MMVServedMetric `msg:"metrics"`
	Warnings  []string          `msg:"warnings,omitempty"`
}

// MMVServedMetric is one metric as pmdammv exports it: its PMNS name,
// its descriptor in the keys and text of the PDU schema's Desc (pmid,
// type, indom, sem, units, with pmdammv's cluster), the item, the help
// texts, the labels that apply to it and its values now.
type MMVServedMetric struct {
	_ noCompare

	Name      string           `msg:"name"`
	PMID      string           `msg:"pmid"`
	Item      uint32           `msg:"item"`
	Type      string           `msg:"type"`
	InDom     string           `msg:"indom"`
	Sem       string           `msg:"sem"`
	Units     string           `msg:"units"`
	ShortText string           `msg:"shorttext"`
	HelpText  string           `msg:"helptext"`
	Labels    []MMVServedLabel `msg:"labels"`
	Values    []MMVServedValue `msg:"values"`
}

// MMVServedLabel is one label entry that applies to a metric or an
// instance: its level (cluster, item, indom or instance), whether it is
// optional, and its payload, {"name":value}, as JSON text (the json key
// of LabelSet and MMVLabel).
type MMVServedLabel struct {
	_ noCompare

	Level    string `msg:"level"`
	Optional bool   `msg:"optional,omitempty"`
	JSON     string `msg:"json"`
}

// MMVServedValue is one value as pmdammv would return it now: inst and
// instance (the instance's id and name) are nil for a singular metric;
// value is an integer, a float (NaN and infinities as the strings "NaN",
// "+Inf", "-Inf", as in Value), a string, or nil when a SENTINEL file
// says "no value" or the type has none.
type MMVServedValue struct {
	_ noCompare

	Inst     *int32           `msg:"inst"`
	Instance *string          `msg:"instance"`
	Value    Raw              `msg:"value"`
	Labels   []MMVServedLabel `msg:"labels,omitempty"`
}

// MMVSkipped is a file of a directory that pmdammv would skip, and why;
// `perfwire mmv DIR --json` prints one line per such file before the
// files it serves.
type MMVSkipped struct {
	_ noCompare

	File  string `msg:"file"`
	Error *Error `msg:"error"`
}

// MMVServeInput is the input of mmv_serve: the files to serve as pmdammv
// serves one directory of them, in its order.
type MMVServeInput struct {
	_ noCompare

	Files  []MMVImage `msg:"files"`
	Strict bool       `msg:"strict"` // refuse a file with a metric pmdammv leaves out
	Now    int64      `msg:"now"`    // microseconds since the Unix epoch, for elapsed values
	// ValidateOnly stops after validating the files: the host could not
	// read the file after them, which it reports unless one of these
	// fails first.
	ValidateOnly bool `msg:"validate_only"`
}

// MMVImage is one MMV file image to serve.
type MMVImage struct {
	_ noCompare

	Path      string `msg:"path"` // as the result prints it
	Name      string `msg:"name"` // pmdammv's name for it: the path's base name
	BigEndian bool   `msg:"big_endian"`
	Image     []byte `msg:"image"`
}
