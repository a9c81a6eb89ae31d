package dltkpi

// CmdKind classifies a command string by the fallback dlt-kpi used
// (docs/dlt-kpi.md §3.1, §8).
type CmdKind uint8

// Command kinds.
const (
	CmdUnknown CmdKind = iota // no NEW or CHK seen yet (known from ACT only)
	CmdArgv0                  // argv[0] up to its first NUL
	CmdComm                   // "(comm)": argv[0] was empty
	CmdCommCut                // "(comm" cut at whitespace: comm contains whitespace
	CmdNull                   // "(null)": the command line could not be read
)

var cmdKindNames = [...]string{"unknown", "argv0", "comm", "comm-cut", "null"}

// String names the kind.
func (c CmdKind) String() string {
	if int(c) < len(cmdKindNames) {
		return cmdKindNames[c]
	}
	return ""
}

// ClassifyCmd returns the kind of a NEW/CHK command.
func ClassifyCmd(cmd []byte) CmdKind {
	switch {
	case string(cmd) == "(null)":
		return CmdNull
	case len(cmd) > 0 && cmd[0] == '(':
		if cmd[len(cmd)-1] == ')' {
			return CmdComm
		}
		return CmdCommCut
	case len(cmd) == 0:
		return CmdUnknown
	}
	return CmdArgv0
}

// Process is one row of the tracker's process table. Byte fields are the
// tracker's own copies.
type Process struct {
	PID  int32
	PPID int32
	// PPIDKnown is false for processes known only from CHK or ACT.
	PPIDKnown bool
	Cmd       []byte
	CmdKind   CmdKind
	// Partial: the command is the prefix of a fragment; no complete NEW
	// or CHK dataset for this pid has arrived (dlt-kpi's flood, docs/dlt-kpi.md §5.2).
	Partial bool
	// StatShifted: the comm contains whitespace, so dlt-kpi read the
	// wrong /proc/<pid>/stat fields: ppid is 0 and the ACT values (RSS
	// is really the virtual size in bytes) are not to be trusted (docs/dlt-kpi.md §5.4).
	StatShifted bool
	// FirstSeen and LastSeen are TMSP values (0.1 ms).
	FirstSeen, LastSeen uint32

	// HasACT: at least one ACT sample arrived; ACTTime is the latest's TMSP.
	HasACT  bool
	ACTTime uint32
	// CPU is the per-mille of the machine in the latest interval; a
	// complete ACT group that does not list the pid sets it to 0.
	CPU uint64
	// RSS is the resident set size in pages (see RSSBytes); it is kept,
	// not zeroed, when an ACT group omits the pid.
	RSS int64
	// Ctx and IO are the latest cumulative counters; IOWait is per-mille.
	Ctx    int64
	IO     uint64
	IOWait uint64
	// HasDelta: CtxDelta and IODelta hold the growth of Ctx and IO between
	// the last two ACT samples, which lie Interval TMSP units apart. A
	// counter that went backwards clears HasDelta.
	HasDelta bool
	CtxDelta int64
	IODelta  uint64
	Interval uint32

	actGen, chkGen uint32
	ending         bool
	stopAt         uint32 // the STP's TMSP while ending
	slot           int    // index in the tracker's list while in its table
}

// RSSBytes converts RSS from pages to bytes for a page size (dlt-kpi
// does not send it; 4096 on x86-64).
func (p *Process) RSSBytes(pageSize int64) int64 { return p.RSS * pageSize }
