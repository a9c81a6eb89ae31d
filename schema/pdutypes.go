package schema

//go:generate go tool msgp -io=false -tests=false -file pdutypes.go -o pdutypes_gen.go
//go:generate go run ./internal/encgen -file pdutypes.go

// The PDU schema. One decoded PDU is one flat map: the PDUHeader keys,
// then the keys of its type's body struct below, in this order; `perfwire
// pdu` prints the same map as a JSON line and pdu_decode returns it as
// MessagePack. Identifiers (pmid, indom) are PCP's dotted text; type and
// semantics are their names; a key that is present only for some values
// says so.

// PDUHeader is the framing of one PDU.
type PDUHeader struct {
	_ noCompare

	File   string `msg:"file,omitempty"` // the CLI's input file, when it reads several
	Offset int64  `msg:"offset"`         // from the start of the stream
	Len    uint32 `msg:"len"`
	Type   string `msg:"type"` // the PDU type's name (RESULT, DESC, ...)
	From   int32  `msg:"from"`
}

// ErrorBody is an ERROR PDU of the short form.
type ErrorBody struct {
	_ noCompare

	Code int32 `msg:"code"`
}

// ErrorExtBody is the 20-byte ERROR PDU of the connection handshake.
type ErrorExtBody struct {
	_ noCompare

	Code            int32  `msg:"code"`
	Datum           string `msg:"datum"` // hex
	HandshakeStatus int32  `msg:"handshake_status"`
	Version         uint8  `msg:"version"`
	Features        string `msg:"features"` // hex
}

// ResultBody is a RESULT or HIGHRES_RESULT PDU.
type ResultBody struct {
	_ noCompare

	Sec       int64      `msg:"sec"`
	Nsec      int64      `msg:"nsec"`
	NumPMID   int        `msg:"numpmid"`
	ValueSets []ValueSet `msg:"value_sets"`
}

// ValueSet is one metric of a RESULT. valfmt and values are absent when
// numval is 0 or an error code.
type ValueSet struct {
	_ noCompare

	PMID   string  `msg:"pmid"`
	NumVal int32   `msg:"numval"`
	ValFmt *uint8  `msg:"valfmt,omitempty"`
	Values []Value `msg:"values,omitempty"`
}

// Value is one instance's value. fmt is insitu, dptr or sptr; an insitu
// value is a 32-bit integer with no type key. A value block has its
// type's name and, by type: value (an integer, a float, or a string; NaN
// and infinities as the strings "NaN", "+Inf", "-Inf"), records (event
// arrays) or hex (aggregates and anything else).
type Value struct {
	_ noCompare

	Inst    int32         `msg:"inst"`
	Fmt     string        `msg:"fmt"`
	Type    string        `msg:"type,omitempty"`
	Value   *Raw          `msg:"value,omitempty"`
	Records []EventRecord `msg:"records,omitempty"`
	Hex     *string       `msg:"hex,omitempty"`
}

// EventRecord is one record of an event array. A missed-record marker
// has missed and no params; any other record has params and no missed.
type EventRecord struct {
	_ noCompare

	Sec    int64        `msg:"sec"`
	Nsec   int64        `msg:"nsec"`
	Flags  string       `msg:"flags"` // as pmEventFlagsStr prints them
	Missed *int32       `msg:"missed,omitempty"`
	Params []EventParam `msg:"params,omitempty"`
}

// EventParam is one parameter of an event record; value is typed as in
// Value, hex for aggregates.
type EventParam struct {
	_ noCompare

	PMID  string `msg:"pmid"`
	Type  string `msg:"type"`
	Value Raw    `msg:"value"`
}

// ProfileBody is a PROFILE PDU.
type ProfileBody struct {
	_ noCompare

	Ctx     int32          `msg:"ctx"`
	State   int32          `msg:"state"`
	Entries []ProfileEntry `msg:"entries"`
}

// ProfileEntry is one instance domain of a PROFILE.
type ProfileEntry struct {
	_ noCompare

	InDom string  `msg:"indom"`
	State int32   `msg:"state"`
	Insts []int32 `msg:"insts"`
}

// FetchBody is a FETCH or HIGHRES_FETCH PDU.
type FetchBody struct {
	_ noCompare

	Ctx   int32    `msg:"ctx"`
	PMIDs []string `msg:"pmids"`
}

// PMIDBody is a DESC_REQ PDU.
type PMIDBody struct {
	_ noCompare

	PMID string `msg:"pmid"`
}

// Desc is a metric descriptor.
type Desc struct {
	_ noCompare

	PMID  string `msg:"pmid"`
	Type  string `msg:"type"`
	InDom string `msg:"indom"`
	Sem   string `msg:"sem"`
	Units string `msg:"units"`
}

// DescBody is a DESC PDU.
type DescBody struct {
	_ noCompare

	Desc Desc `msg:"desc"`
}

// DescsBody is a DESCS PDU.
type DescsBody struct {
	_ noCompare

	Descs []Desc `msg:"descs"`
}

// PMIDsBody is a DESC_IDS PDU.
type PMIDsBody struct {
	_ noCompare

	PMIDs []string `msg:"pmids"`
}

// InstanceReqBody is an INSTANCE_REQ PDU.
type InstanceReqBody struct {
	_ noCompare

	InDom string `msg:"indom"`
	Inst  int32  `msg:"inst"`
	Name  string `msg:"name"`
}

// InstanceBody is an INSTANCE PDU.
type InstanceBody struct {
	_ noCompare

	InDom     string     `msg:"indom"`
	Instances []Instance `msg:"instances"`
}

// Instance is one instance of an INSTANCE PDU.
type Instance struct {
	_ noCompare

	Inst int32  `msg:"inst"`
	Name string `msg:"name"`
}

// IdentKindBody is a TEXT_REQ or LABEL_REQ PDU.
type IdentKindBody struct {
	_ noCompare

	Ident string `msg:"ident"` // hex
	Kind  int32  `msg:"kind"`
}

// TextBody is a TEXT PDU.
type TextBody struct {
	_ noCompare

	Ident string `msg:"ident"` // hex
	Text  string `msg:"text"`
}

// CredsBody is a CREDS PDU.
type CredsBody struct {
	_ noCompare

	Creds []Cred `msg:"creds"`
}

// Cred is one credential word.
type Cred struct {
	_ noCompare

	Type    uint8  `msg:"type"`
	Version uint8  `msg:"version"`
	Flags   string `msg:"flags"` // hex
}

// PMNSIDsBody is a PMNS_IDS PDU.
type PMNSIDsBody struct {
	_ noCompare

	Status int32    `msg:"status"`
	PMIDs  []string `msg:"pmids"`
}

// PMNSNamesBody is a PMNS_NAMES PDU; statuses is present only when the
// PDU carries one per name.
type PMNSNamesBody struct {
	_ noCompare

	Status   int32    `msg:"status"`
	Names    []string `msg:"names"`
	Statuses []int32  `msg:"statuses,omitempty"`
}

// PMNSChildBody is a PMNS_CHILD or PMNS_TRAVERSE PDU.
type PMNSChildBody struct {
	_ noCompare

	Subtype int32  `msg:"subtype"`
	Name    string `msg:"name"`
}

// AttrBody is an ATTR PDU.
type AttrBody struct {
	_ noCompare

	Attr  int32  `msg:"attr"`
	Value string `msg:"value"`
}

// LabelBody is a LABEL PDU.
type LabelBody struct {
	_ noCompare

	Ident string        `msg:"ident"` // hex
	Kind  int32         `msg:"kind"`
	Sets  []PDULabelSet `msg:"sets"`
}

// PDULabelSet is one label set of a LABEL PDU: its JSONB text and the
// labels its index points at.
type PDULabelSet struct {
	_ noCompare

	Inst    int32   `msg:"inst"`
	NLabels int32   `msg:"nlabels"`
	JSON    string  `msg:"json"`
	Labels  []Label `msg:"labels"`
}

// LogRequestBody is a LOG_REQUEST PDU.
type LogRequestBody struct {
	_ noCompare

	Request int32 `msg:"request"`
}

// LogControlBody is a LOG_CONTROL PDU.
type LogControlBody struct {
	_ noCompare

	Control int32       `msg:"control"`
	State   int32       `msg:"state"`
	DeltaMS int32       `msg:"delta_ms"`
	Metrics []LogMetric `msg:"metrics"`
}

// LogMetric is one metric of a LOG_CONTROL PDU.
type LogMetric struct {
	_ noCompare

	PMID   string     `msg:"pmid"`
	NumVal int32      `msg:"numval"`
	Values []LogValue `msg:"values"`
}

// LogValue is one instance's value word.
type LogValue struct {
	_ noCompare

	Inst  int32  `msg:"inst"`
	Value uint32 `msg:"value"`
}

// LogTime is a pmlogger time stamp; frac is microseconds (LOG_STATUS_V2)
// or nanoseconds (LOG_STATUS).
type LogTime struct {
	_ noCompare

	Sec  int64 `msg:"sec"`
	Frac int32 `msg:"frac"`
}

// LogStatusV2Body is a LOG_STATUS_V2 PDU.
type LogStatusV2Body struct {
	_ noCompare

	Start    LogTime `msg:"start"`
	Last     LogTime `msg:"last"`
	Now      LogTime `msg:"now"`
	State    int32   `msg:"state"`
	Vol      int32   `msg:"vol"`
	Size     int64   `msg:"size"`
	Host     string  `msg:"host"`
	FQDN     string  `msg:"fqdn"`
	PMCDTZ   string  `msg:"pmcd_tz"`
	LoggerTZ string  `msg:"logger_tz"`
}

// LogStatusBody is a LOG_STATUS PDU.
type LogStatusBody struct {
	_ noCompare

	Start   LogTime  `msg:"start"`
	Last    LogTime  `msg:"last"`
	Now     LogTime  `msg:"now"`
	State   int32    `msg:"state"`
	Vol     int32    `msg:"vol"`
	Size    int64    `msg:"size"`
	Strings []string `msg:"strings"`
}

// UnknownBody is a PDU of a type this SDK does not decode.
type UnknownBody struct {
	_ noCompare

	BodyHex string `msg:"body_hex"`
}
