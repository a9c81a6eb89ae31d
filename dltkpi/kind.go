package dltkpi

// Kind is the KPI identifier carried by a message's first argument.
type Kind uint8

// The five identifiers dlt-kpi writes. KindNone is the zero value and
// never appears in a parsed message.
const (
	KindNone Kind = iota
	KindNEW       // processes seen for the first time: pid;ppid;cmd
	KindSTP       // processes gone since the last scan: pid
	KindACT       // processes that used CPU: pid;cpu;rss;ctx;io;iowait
	KindCHK       // every known process, periodically: pid;cmd
	KindIRQ       // one row of /proc/interrupts: name;cpuN:count;…
)

// NumKinds bounds arrays indexed by Kind.
const NumKinds = int(KindIRQ) + 1

// Kinds lists the five identifiers in a fixed order, for reports.
var Kinds = [...]Kind{KindNEW, KindSTP, KindACT, KindCHK, KindIRQ}

var kindNames = [NumKinds]string{"", "NEW", "STP", "ACT", "CHK", "IRQ"}

// String returns the three-letter identifier, or "" for KindNone and
// values out of range.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return ""
}

// kindOf maps an identifier argument to its Kind; KindNone if unknown.
func kindOf(b []byte) Kind {
	if len(b) != 3 {
		return KindNone
	}
	switch string(b) {
	case "NEW":
		return KindNEW
	case "STP":
		return KindSTP
	case "ACT":
		return KindACT
	case "CHK":
		return KindCHK
	case "IRQ":
		return KindIRQ
	}
	return KindNone
}

// Sync says whether a message is a group marker.
type Sync uint8

// A data message has SyncNone; the 2-argument markers have SyncBegin or
// SyncEnd.
const (
	SyncNone  Sync = iota
	SyncBegin      // [kind, "BEG"]
	SyncEnd        // [kind, "END"]
)

// String returns "BEG", "END" or "" for data messages.
func (s Sync) String() string {
	switch s {
	case SyncBegin:
		return "BEG"
	case SyncEnd:
		return "END"
	}
	return ""
}
