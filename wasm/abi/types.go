package abi

//go:generate go tool msgp -io=false -tests=false -file types.go -o types_gen.go

// Version is the ABI number hosts query with abi_version (wasip1) or
// perfwire.abiVersion (js). It grows when an export or a result schema
// changes incompatibly; adding a key to a result map does not change it.
const Version = 2

// Error is a failed call's error, carried in the result's "error" key
// (nil when the call succeeded). Kind is the text of the sentinel error the
// SDK matched (for example "dlt: truncated message") or one of the ABI's
// own kinds ("abi: bad handle", "abi: bad input", "abi: limit"); Message is
// the full error text; Format, Field and Offset come from a
// wire.Error and are empty or -1 when the failure has no position.
type Error struct {
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
	Error *Error `msg:"error"`
}

// KPIMessages is the result of kpi_decode: the KPI messages of a DLT
// byte stream, in order.
type KPIMessages struct {
	Error    *Error       `msg:"error"`
	Messages []KPIMessage `msg:"messages"`
	// More is true when the call stopped at its message limit before the
	// end of the input; Offset is where it stopped.
	More   bool `msg:"more"`
	Offset int  `msg:"offset"`
	// Skipped counts bytes the DLT scanner passed over to resynchronise.
	Skipped int `msg:"skipped"`
}

// KPIMessage is one dlt-kpi message.
type KPIMessage struct {
	TMSP     uint32       `msg:"tmsp"` // DLT timestamp, 0.1 ms of ECU uptime
	Kind     string       `msg:"kind"` // NEW, STP, ACT, CHK or IRQ
	Sync     string       `msg:"sync"` // BEG, END or "" for a data message
	Datasets []KPIDataset `msg:"datasets"`
}

// KPIDataset is one dataset argument. Byte strings are raw /proc bytes
// and may be invalid UTF-8. Fields that do not belong to Kind are omitted.
type KPIDataset struct {
	Truncated bool    `msg:"truncated,omitempty"` // a libdlt fragment: only raw is set
	Error     string  `msg:"error,omitempty"`     // malformed: only raw is set
	Raw       []byte  `msg:"raw,omitempty"`       // only for truncated or malformed datasets
	PID       int32   `msg:"pid,omitempty"`
	PPID      int32   `msg:"ppid,omitempty"`
	Cmd       []byte  `msg:"cmd,omitempty"`
	CPU       uint64  `msg:"cpu,omitempty"`
	RSS       int64   `msg:"rss,omitempty"`
	Ctx       int64   `msg:"ctx,omitempty"`
	IO        uint64  `msg:"io,omitempty"`
	IOWait    uint64  `msg:"iowait,omitempty"`
	IRQ       []byte  `msg:"irq,omitempty"`
	Counts    []int64 `msg:"counts,omitempty"`
}

// KPIStep is the result of kpi_step: how far the session got and the
// CPU samples of the ACT groups that ended during the step.
type KPIStep struct {
	Error    *Error      `msg:"error"`
	Offset   int         `msg:"offset"` // bytes of the input consumed so far
	Total    int         `msg:"total"`  // bytes of the input
	Done     bool        `msg:"done"`
	Messages int         `msg:"messages"` // KPI messages pushed so far
	Samples  []CPUSample `msg:"samples"`
}

// CPUSample is the CPU of the processes an ACT group listed, as the
// tracker holds it right after the group ended, in the group's order.
type CPUSample struct {
	TMSP uint32   `msg:"tmsp"`
	PIDs []int32  `msg:"pids"`
	CPU  []uint64 `msg:"cpu"` // per-mille of the machine, parallel to pids
}

// KPITable is the result of kpi_table: the tracker's current state.
type KPITable struct {
	Error     *Error       `msg:"error"`
	Processes []KPIProcess `msg:"processes"`
	IRQs      []KPIIRQ     `msg:"irqs"`
	Stats     KPIStats     `msg:"stats"`
}

// KPIProcess is one row of the process table (dltkpi.Process).
type KPIProcess struct {
	PID         int32  `msg:"pid"`
	PPID        int32  `msg:"ppid"`
	PPIDKnown   bool   `msg:"ppid_known"`
	Cmd         []byte `msg:"cmd"`
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
}

// KPIIRQ is one interrupt on one CPU (dltkpi.IRQRate).
type KPIIRQ struct {
	Name      string  `msg:"name"`
	CPU       int     `msg:"cpu"`
	Count     int64   `msg:"count"`
	HasDelta  bool    `msg:"has_delta"`
	Delta     int64   `msg:"delta"`
	Interval  uint32  `msg:"interval"`
	PerSecond float64 `msg:"per_second"`
}

// KPIStats counts what the reassembler and the tracker saw.
type KPIStats struct {
	Messages      int   `msg:"messages"`
	Datasets      []int `msg:"datasets"` // per kind: NEW, STP, ACT, CHK, IRQ
	Groups        []int `msg:"groups"`   // closed by END, per kind
	Fragments     int   `msg:"fragments"`
	Malformed     int   `msg:"malformed"`
	OpenGroups    int   `msg:"open_groups"`
	Skipped       int   `msg:"skipped"` // bytes the DLT scanner resynchronised over
	InferredStops int   `msg:"inferred_stops"`
	SuspectIRQ    int   `msg:"suspect_irq"`
	Replaced      int   `msg:"replaced"`
}

// LabelSet is the result of labels_canon and labels_merge.
type LabelSet struct {
	Error  *Error  `msg:"error"`
	JSON   string  `msg:"json"` // canonical JSONB text
	Labels []Label `msg:"labels"`
}

// Label is one label of a set, sorted by name.
type Label struct {
	Name  string `msg:"name"`  // dotted for compound labels
	Value string `msg:"value"` // JSON value text
	Flags uint8  `msg:"flags"` // PCP label flags (hierarchy level, compound, optional)
}

// EventArray is the result of events_decode.
type EventArray struct {
	Error   *Error        `msg:"error"`
	HighRes bool          `msg:"highres"`
	Records []EventRecord `msg:"records"`
}

// EventRecord is one event record.
type EventRecord struct {
	Seconds int64  `msg:"sec"`
	Nanos   int64  `msg:"nsec"`
	Flags   uint32 `msg:"flags"`
	// Missed is the count of dropped records of a missed-record marker.
	Missed int32        `msg:"missed,omitempty"`
	Params []EventParam `msg:"params"`
}

// EventParam is one parameter: its metric id, PCP type number, the value
// as pminfo prints it and the raw big-endian value bytes.
type EventParam struct {
	PMID  uint32 `msg:"pmid"`
	Type  int32  `msg:"type"`
	Text  string `msg:"text"`
	Value []byte `msg:"value"`
}

// PDUStream is the result of pdu_decode: the PDUs of a PCP byte stream
// (one direction of a pmcd connection) in order.
type PDUStream struct {
	Error *Error `msg:"error"` // a framing error ends the stream
	PDUs  []PDU  `msg:"pdus"`
}

// PDU is one framed PDU: its header, and whether its body decodes as its
// type says (Error is nil when it does).
type PDU struct {
	Offset   int64  `msg:"offset"`
	Len      uint32 `msg:"len"`
	Type     int32  `msg:"type"`
	TypeName string `msg:"type_name"`
	From     int32  `msg:"from"`
	Error    *Error `msg:"error"`
}

// MMVFile is the result of mmv_read: the metadata and current values of
// an MMV file image.
type MMVFile struct {
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
	Serial    uint32 `msg:"serial"`
	Count     int    `msg:"count"` // number of instances
	ShortText string `msg:"shorttext"`
	HelpText  string `msg:"helptext"`
}

// MMVLabel is one label entry of a version 3 file.
type MMVLabel struct {
	Flags    uint32 `msg:"flags"`    // PCP label flags: the level bit, optional
	Identity uint32 `msg:"identity"` // cluster, indom serial or item, by level
	Internal int32  `msg:"internal"` // instance id for an instance label, else -1
	JSON     string `msg:"json"`     // the payload, {"name":value}
}

// MMVInstance is one instance entry.
type MMVInstance struct {
	Indom uint32 `msg:"indom"` // serial of the owning indom
	ID    int32  `msg:"id"`
	Name  string `msg:"name"`
}

// MMVValue is one value entry; exactly one of i, u, f and s is present,
// chosen by the metric's type, and none when Missing.
type MMVValue struct {
	Metric   string   `msg:"metric"`
	Instance string   `msg:"instance"` // "" for a singular metric
	Missing  bool     `msg:"missing,omitempty"`
	Int      *int64   `msg:"i,omitempty"`
	Uint     *uint64  `msg:"u,omitempty"`
	Float    *float64 `msg:"f,omitempty"`
	Text     *string  `msg:"s,omitempty"`
}
