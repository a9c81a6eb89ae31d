package schema

//go:generate go tool msgp -io=false -tests=false -file pmtypes.go -o pmtypes_gen.go
//go:generate go run ./internal/encgen -file pmtypes.go

// The schema of `perfwire pm --json`: what a pmcd client asked and got,
// one value per line. Identifiers, types and semantics are as in the PDU
// schema (pdutypes.go); no module calls pmcd, so the types are apart from
// types.go and the modules build from unchanged generated code.

// PMName is one name of `pm names`.
type PMName struct {
	_ noCompare

	Name string `msg:"name"`
}

// PMDesc is one metric of `pm desc`: its name and descriptor, the keys
// of Desc.
type PMDesc struct {
	_ noCompare

	Name  string `msg:"name"`
	PMID  string `msg:"pmid"`
	Type  string `msg:"type"`
	InDom string `msg:"indom"`
	Sem   string `msg:"sem"`
	Units string `msg:"units"`
}

// PMInstance is one instance of `pm indom`.
type PMInstance struct {
	_ noCompare

	Inst int32  `msg:"inst"`
	Name string `msg:"name"`
}

// PMText is one metric of `pm text`: its one-line and long help.
type PMText struct {
	_ noCompare

	Name    string `msg:"name"`
	OneLine string `msg:"oneline"`
	Help    string `msg:"help"`
}

// PMLabels is one metric of `pm labels`: its merged label set as JSON
// text (the json of LabelSet) and, for a metric with an instance domain,
// each instance's; instances is absent for a singular metric.
type PMLabels struct {
	_ noCompare

	Name      string             `msg:"name"`
	JSON      string             `msg:"json"`
	Instances []PMInstanceLabels `msg:"instances,omitempty"`
}

// PMInstanceLabels is one instance's merged label set.
type PMInstanceLabels struct {
	_ noCompare

	Inst int32  `msg:"inst"`
	Name string `msg:"name"`
	JSON string `msg:"json"`
}

// PMFetch is one metric of `pm fetch`. Error is pmcd's message when the
// metric has no values (and values is then absent).
type PMFetch struct {
	_ noCompare

	Name   string    `msg:"name"`
	PMID   string    `msg:"pmid"`
	Type   string    `msg:"type"`
	Error  string    `msg:"error,omitempty"`
	Values []PMValue `msg:"values,omitempty"`
}

// PMValue is one instance's value: an integer, a float (NaN and
// infinities as strings, as in Value), a string, an aggregate's bytes in
// hex, or nil when it cannot be extracted (or, in `pm val`, when a rate
// has no previous value).
type PMValue struct {
	_ noCompare

	Inst  int32 `msg:"inst"`
	Value Raw   `msg:"value"`
}

// PMStore is `pm store`: the value before and the value stored.
type PMStore struct {
	_ noCompare

	Name string `msg:"name"`
	Old  string `msg:"old"` // as pminfo -f prints it
	New  string `msg:"new"` // as given
}

// PMValSample is one sample of `pm val`: its time (RFC 3339, UTC) and
// each wanted instance's value (a counter's rate unless raw), in the
// result's order.
type PMValSample struct {
	_ noCompare

	Timestamp string         `msg:"timestamp"`
	Metric    string         `msg:"metric"`
	Values    []PMValInstant `msg:"values"`
}

// PMValInstant is one value of a pm val sample; inst is -1 and name ""
// for a singular metric.
type PMValInstant struct {
	_ noCompare

	Inst  int64  `msg:"inst"`
	Name  string `msg:"name"`
	Value Raw    `msg:"value"`
}
