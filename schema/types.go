package schema

//go:generate go tool msgp -io=false -tests=false -file types.go -o types_gen.go
//go:generate go run ./internal/encgen -file types.go

// noCompare, the first field of every result type, makes the types
// incomparable, so that the linker emits no equality function for them
// (module size).
type noCompare [0]func()

// Error is a failed call's error, carried in the result's "error" key
// (nil when the call succeeded). Kind is the stable code of the failure's
// kind (wire.Kind.Code: "truncated", "limit", "syntax", ..., or one of the
// ABI's own: "bad_handle", "bad_input", "bad_mode", "internal"); Message
// is the full error text, as the CLI prints it; Format, Field and Offset
// come from a wire.Error and are empty or -1 when the failure has no
// position.
type Error struct {
	_ noCompare

	Kind    string `msg:"kind"`
	Message string `msg:"message"`
	Format  string `msg:"format"`
	Field   string `msg:"field"`
	Offset  int64  `msg:"offset"`
}

// ErrorResult is the result of a call that failed before it could
// produce its own result type, for example on a bad handle; its only key
// is "error", so hosts decode it with any result's schema.
type ErrorResult struct {
	_ noCompare

	Error *Error `msg:"error"`
}

// KPIMessages is the result of kpi_decode: the KPI messages of a DLT
// byte stream, in order.
type KPIMessages struct {
	_ noCompare

	Error    *Error       `msg:"error"`
	Messages []KPIMessage `msg:"messages"`
	// More is true when the call stopped at its message limit before the
	// end of the input; Offset is where it stopped.
	More   bool `msg:"more"`
	Offset int  `msg:"offset"`
	// SkippedBytes counts bytes the DLT scanner passed over to
	// resynchronise.
	SkippedBytes int `msg:"skipped_bytes"`
}

// KPIMessage is one dlt-kpi message; `perfwire kpi --json` prints one
// per line.
type KPIMessage struct {
	_ noCompare

	TMSP     uint32       `msg:"tmsp"` // DLT timestamp, 0.1 ms of ECU uptime
	Time     float64      `msg:"time"` // the same in seconds
	Kind     string       `msg:"kind"` // NEW, STP, ACT, CHK or IRQ
	Sync     string       `msg:"sync"` // BEG, END or "" for a data message
	Datasets []KPIDataset `msg:"datasets"`
}

// KPIDataset is one dataset argument. It has the keys of its kind, zero
// or not, and no others: NEW pid, ppid, cmd; STP pid; ACT pid, cpu, rss
// (pages), ctx, io, iowait; CHK pid, cmd; IRQ name, counts (per CPU). A
// libdlt fragment has truncated and raw; a malformed dataset error and
// raw. Raw /proc bytes (cmd, name, raw) are text; when they are not
// valid UTF-8 each bad byte reads U+FFFD and the exact bytes come in
// hex beside them (cmd_hex, name_hex, raw_hex).
type KPIDataset struct {
	_ noCompare

	Truncated bool    `msg:"truncated,omitempty"`
	Error     string  `msg:"error,omitempty"`
	Raw       *string `msg:"raw,omitempty"`
	RawHex    string  `msg:"raw_hex,omitempty"`
	PID       *int32  `msg:"pid,omitempty"`
	PPID      *int32  `msg:"ppid,omitempty"`
	Cmd       *string `msg:"cmd,omitempty"`
	CmdHex    string  `msg:"cmd_hex,omitempty"`
	CPU       *uint64 `msg:"cpu,omitempty"`
	RSS       *int64  `msg:"rss,omitempty"`
	Ctx       *int64  `msg:"ctx,omitempty"`
	IO        *uint64 `msg:"io,omitempty"`
	IOWait    *uint64 `msg:"iowait,omitempty"`
	Name      *string `msg:"name,omitempty"`
	NameHex   string  `msg:"name_hex,omitempty"`
	Counts    []int64 `msg:"counts,omitempty"`
}

// KPIStep is the result of kpi_step, kpi_feed and kpi_end: how far the
// session got and what happened during the step: the samples of the ACT
// groups that ended, the interrupt table after each IRQ group applied,
// and the processes that left the table.
type KPIStep struct {
	_ noCompare

	Error *Error `msg:"error"`
	// SkipError is the first damage a stream session resynchronised past
	// in its current input (since kpi_stream or the last kpi_cut).
	SkipError *Error      `msg:"skip_error,omitempty"`
	Offset    int         `msg:"offset"` // bytes of the input consumed so far
	Total     int         `msg:"total"`  // bytes of the input
	Done      bool        `msg:"done"`
	Messages  int         `msg:"messages"` // KPI messages pushed so far
	Samples   []CPUSample `msg:"samples"`
	// IRQs are the interrupt rows each IRQ group the tracker applied (a
	// suspect one is not) updated, in order, as `perfwire kpi --irqs`
	// prints them: each one's tmsp is its group's BEG.
	IRQs []KPIIRQ `msg:"irqs"`
	// Ended are the processes the tracker removed (exited, or the earlier
	// holder of a reused pid), each with its end and end_by.
	Ended []KPIProcess `msg:"ended"`
}

// CPUSample is the CPU, RSS, context switches and I/O of the processes
// an ACT group listed, as the tracker holds them right after the group
// ended (`perfwire kpi top` prints a frame then), in the group's order;
// every slice is parallel to pids.
type CPUSample struct {
	_ noCompare

	TMSP uint32   `msg:"tmsp"`
	PIDs []int32  `msg:"pids"`
	CPU  []uint64 `msg:"cpu"` // per-mille of the machine
	RSS  []int64  `msg:"rss"` // pages
	// Ctx and IO are the growth of the counters in the last interval
	// (KPIProcess's ctx_delta and io_delta); without one (has_delta
	// false) ctx is -1 and io 0.
	Ctx []int64  `msg:"ctx"`
	IO  []uint64 `msg:"io"`
}

// KPITable is the result of kpi_table: the tracker's current state.
type KPITable struct {
	_ noCompare

	Error     *Error       `msg:"error"`
	Processes []KPIProcess `msg:"processes"`
	IRQs      []KPIIRQ     `msg:"irqs"`
	Stats     KPIStats     `msg:"stats"`
}

// KPIProcess is one row of the process table (dltkpi.Process).
type KPIProcess struct {
	_ noCompare

	PID         int32  `msg:"pid"`
	PPID        int32  `msg:"ppid"`
	PPIDKnown   bool   `msg:"ppid_known"`
	Cmd         string `msg:"cmd"`     // as in KPIDataset
	CmdHex      string `msg:"cmd_hex"` // cmd's bytes in hex when they are not UTF-8, else ""
	CmdKind     string `msg:"cmd_kind"`
	Partial     bool   `msg:"partial"`
	StatShifted bool   `msg:"stat_shifted"`
	FirstSeen   uint32 `msg:"first_seen"`
	LastSeen    uint32 `msg:"last_seen"`
	HasACT      bool   `msg:"has_act"`
	CPU         uint64 `msg:"cpu"`
	RSS         int64  `msg:"rss"` // pages
	Ctx         int64  `msg:"ctx"`
	IO          uint64 `msg:"io"`
	IOWait      uint64 `msg:"iowait"`
	HasDelta    bool   `msg:"has_delta"`
	CtxDelta    int64  `msg:"ctx_delta"`
	IODelta     uint64 `msg:"io_delta"`
	Interval    uint32 `msg:"interval"`
	// End is, for a process no longer in the table, when it was known to
	// be gone (dltkpi.Ended), and EndBy what said so: STP, CHK (absent
	// from a complete CHK group), NEW (its pid reused) or "session" (a
	// new dlt-kpi session); 0 and "" for a process in the table.
	End   uint32 `msg:"end"`
	EndBy string `msg:"end_by"`
}

// KPIIRQ is one interrupt on one CPU (dltkpi.IRQRate).
type KPIIRQ struct {
	_ noCompare

	Name      string  `msg:"name"`
	CPU       int     `msg:"cpu"`
	Count     int64   `msg:"count"`
	HasDelta  bool    `msg:"has_delta"`
	Delta     int64   `msg:"delta"`
	Interval  uint32  `msg:"interval"`
	PerSecond float64 `msg:"per_second"`
	TMSP      uint32  `msg:"tmsp"` // of its latest sample (dltkpi.IRQRate.Time)
}

// KPIStats counts what the reassembler and the tracker saw; `perfwire
// kpi --summary` prints it.
type KPIStats struct {
	_ noCompare

	Messages      int        `msg:"messages"`
	Datasets      KindCounts `msg:"datasets"`
	Groups        KindCounts `msg:"groups"` // closed by END
	Truncated     int        `msg:"truncated"`
	Malformed     int        `msg:"malformed"`
	OpenGroups    int        `msg:"open_groups"`
	SkippedBytes  int        `msg:"skipped_bytes"`  // bytes the DLT scanner resynchronised over
	SkippedPlaces int        `msg:"skipped_places"` // in how many places
	InferredStops int        `msg:"inferred_stops"`
	SuspectIRQ    int        `msg:"suspect_irq"`
	Replaced      int        `msg:"replaced"`
}

// KindCounts is a count per KPI kind.
type KindCounts struct {
	_ noCompare

	NEW int `msg:"NEW"`
	STP int `msg:"STP"`
	ACT int `msg:"ACT"`
	CHK int `msg:"CHK"`
	IRQ int `msg:"IRQ"`
}

// LabelSet is the result of labels_canon and labels_merge.
type LabelSet struct {
	_ noCompare

	Error  *Error  `msg:"error"`
	JSON   string  `msg:"json"` // canonical JSONB text
	Labels []Label `msg:"labels"`
}

// Label is one label of a set, in the set's index order (sorted by
// name): its name and value text, its flags and where they lie in the
// set's JSON (libpcp's pmLabel: the offset of a name is just after its
// opening quote).
type Label struct {
	_ noCompare

	Name     string `msg:"name"`  // dotted for compound labels
	Value    string `msg:"value"` // JSON value text
	Flags    uint8  `msg:"flags"` // PCP label flags (hierarchy level, compound, optional)
	NameOff  uint16 `msg:"name_off"`
	NameLen  uint8  `msg:"name_len"`
	ValueOff uint16 `msg:"value_off"`
	ValueLen uint16 `msg:"value_len"`
}

// EventArray is the result of events_decode; its records are those of
// a RESULT value (EventRecord in pdutypes.go).
type EventArray struct {
	_ noCompare

	Error   *Error        `msg:"error"`
	HighRes bool          `msg:"highres"`
	Records []EventRecord `msg:"records"`
}

// PDUStream is the result of pdu_decode and pdu_feed: the PDUs of a PCP
// byte stream (one direction of a pmcd connection) in order, each a map
// of the PDU schema (pdutypes.go), exactly as `perfwire pdu` prints it.
// The first framing or body error ends the stream.
type PDUStream struct {
	_ noCompare

	Error *Error `msg:"error"`
	PDUs  []Raw  `msg:"pdus"`
}

// MMVFile is the result of mmv_read: the metadata and current values of
// an MMV file image.
type MMVFile struct {
	_ noCompare

	Error     *Error        `msg:"error"`
	Version   int32         `msg:"version"`
	Gen       uint64        `msg:"gen"`
	Flags     uint32        `msg:"flags"`
	Process   int32         `msg:"process"`
	Cluster   int32         `msg:"cluster"`
	Metrics   []MMVMetric   `msg:"metrics"`
	Indoms    []MMVIndom    `msg:"indoms"`
	Instances []MMVInstance `msg:"instances"`
	Values    []MMVValue    `msg:"values"`
	Labels    []MMVLabel    `msg:"labels"` // version 3 files only
}

// MMVMetric is one metric entry.
type MMVMetric struct {
	_ noCompare

	Name      string `msg:"name"`
	Item      uint32 `msg:"item"`
	Type      int32  `msg:"type"` // MMV type code
	TypeName  string `msg:"type_name"`
	Sem       uint32 `msg:"sem"`
	Units     uint32 `msg:"units"` // pmUnits bits
	Indom     uint32 `msg:"indom"` // serial; 0 or 0xffffffff when singular
	ShortText string `msg:"shorttext"`
	HelpText  string `msg:"helptext"`
}

// MMVIndom is one instance-domain entry.
type MMVIndom struct {
	_ noCompare

	Serial    uint32 `msg:"serial"`
	Count     int    `msg:"count"` // number of instances
	ShortText string `msg:"shorttext"`
	HelpText  string `msg:"helptext"`
}

// MMVLabel is one label entry of a version 3 file.
type MMVLabel struct {
	_ noCompare

	Flags    uint32 `msg:"flags"`    // PCP label flags: the level bit, optional
	Identity uint32 `msg:"identity"` // cluster, indom serial or item, by level
	Internal int32  `msg:"internal"` // instance id for an instance label, else -1
	JSON     string `msg:"json"`     // the payload, {"name":value}
}

// MMVInstance is one instance entry.
type MMVInstance struct {
	_ noCompare

	Indom uint32 `msg:"indom"` // serial of the owning indom
	ID    int32  `msg:"id"`
	Name  string `msg:"name"`
}

// MMVValue is one value entry; exactly one of i, u, f and s is present,
// chosen by the metric's type, and none when Missing.
type MMVValue struct {
	_ noCompare

	Metric   string   `msg:"metric"`
	Instance string   `msg:"instance"` // "" for a singular metric
	Missing  bool     `msg:"missing,omitempty"`
	Int      *int64   `msg:"i,omitempty"`
	Uint     *uint64  `msg:"u,omitempty"`
	Float    *float64 `msg:"f,omitempty"`
	Text     *string  `msg:"s,omitempty"`
}
