package schema

//go:generate go tool msgp -io=false -tests=false -file ltttypes.go -o ltttypes_gen.go
//go:generate go run ./internal/encgen -file ltttypes.go

// The LTT schema: `perfwire ltt` prints an LTTSummary, or with --events
// one LTTEvent per line. No module serves LTT traces yet; the types are
// apart from types.go so that the modules build from unchanged generated
// code.

// LTTSummary describes an LTT trace directory.
type LTTSummary struct {
	_ noCompare

	Arch       string         `msg:"arch"`
	Endian     string         `msg:"endian"`
	BlockSize  int            `msg:"block_size"`
	Facilities []LTTFacility  `msg:"facilities"`
	Tracefiles []LTTTracefile `msg:"tracefiles"`
}

// LTTFacility is one facility of the trace's control/facilities file.
type LTTFacility struct {
	_ noCompare

	Name     string `msg:"name"`
	Checksum string `msg:"checksum"` // 0x and 8 hex digits
	Base     int    `msg:"base"`     // the first event id
	Events   int    `msg:"events"`   // number of event types
}

// LTTTracefile counts one tracefile's blocks and events. FirstTime and
// LastTime are nanoseconds since the Unix epoch, nil when the file has
// no event; Counts maps each event type's name (facility.event) to its
// count, keys sorted.
type LTTTracefile struct {
	_ noCompare

	Name      string   `msg:"name"`
	Bytes     int      `msg:"bytes"`
	Blocks    int      `msg:"blocks"`
	Versions  []string `msg:"versions"` // block trailer rules seen, in order: v1, v2
	Events    int      `msg:"events"`
	FirstTime *int64   `msg:"first_time"`
	LastTime  *int64   `msg:"last_time"`
	Wraps     uint64   `msg:"wraps"` // cycle counter wraps
	Counts    Raw      `msg:"counts"`
}

// LTTEvent is one event. Block is -1 in time-merged output; Time is
// nanoseconds since the Unix epoch; Fields is the payload: a struct is a
// map in declaration order, an array or sequence an array, an enum
// {value, label} (label when the enum names the value), a union {tag,
// <field>: value}, a float as in Value (NaN and infinities as strings).
type LTTEvent struct {
	_ noCompare

	File   string `msg:"file"`
	Block  int    `msg:"block"`
	Offset int    `msg:"offset"`
	ID     uint16 `msg:"id"`
	Event  string `msg:"event"`
	TSC    uint32 `msg:"tsc"`
	Cycles uint64 `msg:"cycles"`
	Time   int64  `msg:"time"`
	Fields Raw    `msg:"fields"`
}
