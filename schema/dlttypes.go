package schema

//go:generate go tool msgp -io=false -tests=false -file dlttypes.go -o dlttypes_gen.go
//go:generate go run ./internal/encgen -file dlttypes.go

// DLTMessage is one DLT message of any kind, as `perfwire dlt --json`
// prints it: the headers, each verbose argument, and the payload text
// that dlt-convert -a prints in brackets.
type DLTMessage struct {
	Index     int      `msg:"index"`               // position in its file or stream, from 0, as dlt-convert numbers it
	Offset    int      `msg:"offset"`              // byte offset of the record in its file or stream
	Time      string   `msg:"time,omitempty"`      // storage header time, RFC 3339 UTC with microseconds
	Timestamp *uint32  `msg:"timestamp,omitempty"` // 0.1 ms since the ECU started, when the message has one
	Counter   uint8    `msg:"counter"`
	ECU       string   `msg:"ecu"`
	AppID     string   `msg:"apid,omitempty"` // with an extended header only
	ContextID string   `msg:"ctid,omitempty"`
	Type      string   `msg:"type"`              // log, app_trace, nw_trace, control
	Subtype   string   `msg:"subtype,omitempty"` // the log level for log messages
	Verbose   bool     `msg:"verbose"`
	Args      []DLTArg `msg:"args,omitempty"` // verbose messages
	Payload   string   `msg:"payload"`
}

// DLTArg is one verbose argument: its kind (bool, sint, uint, float,
// string, raw, trace_info, ...), its variable name and unit when it has
// them, and its value as dlt-convert prints it.
type DLTArg struct {
	Kind string `msg:"kind"`
	Name string `msg:"name,omitempty"`
	Unit string `msg:"unit,omitempty"`
	Text string `msg:"text"`
}
