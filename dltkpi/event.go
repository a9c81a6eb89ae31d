package dltkpi

// EventType says what an Event reports.
type EventType uint8

// Events in the order a consumer typically handles them.
const (
	// EventDataset: one dataset, in the open group of its kind or, with
	// Orphan set, outside any group. Err is set when it is malformed.
	EventDataset EventType = iota + 1
	// EventFragment: a truncated duplicate (Dataset.Truncated), dropped
	// from the group and counted.
	EventFragment
	// EventGroupBegin: a BEG opened a group (Group).
	EventGroupBegin
	// EventGroupEnd: an END closed the group; Group.Complete says whether
	// its datasets form an authoritative list.
	EventGroupEnd
	// EventGroupAborted: a group was given up (Group.Reason).
	EventGroupAborted
	// EventFragmentOnly: a data message held only fragments.
	EventFragmentOnly
	// EventEndWithoutBegin: an END with no open group of its kind.
	EventEndWithoutBegin
	// EventMcntGap: the message counter skipped; open groups are flagged.
	EventMcntGap
	// EventSessionChanged: a new SEID for a session: dlt-kpi restarted.
	EventSessionChanged
	// EventInvalid: a message from the KPI context failed to parse (Err).
	EventInvalid
)

var eventNames = [...]string{"", "dataset", "fragment", "begin", "end", "aborted", "fragment-only", "end-without-begin", "mcnt-gap", "session-changed", "invalid"}

// String names the event type.
func (t EventType) String() string {
	if int(t) < len(eventNames) {
		return eventNames[t]
	}
	return ""
}

// AbortReason says why a group was given up.
type AbortReason uint8

// Reasons for EventGroupAborted.
const (
	AbortNone         AbortReason = iota
	AbortNewBegin                 // a BEG of the same kind arrived first
	AbortSession                  // dlt-kpi restarted or the session was evicted
	AbortLimit                    // MaxGroupDatasets or MaxGroupBytes
	AbortAge                      // MaxGroupAge
	AbortUnterminated             // end of input (Flush)
)

// Group describes one BEG…END group, open or closed.
type Group struct {
	_          [0]func() // not comparable: no equality function in the wasm build
	Kind       Kind
	Begin, End uint32 // TMSP of BEG and of the latest message
	Messages   int    // data messages
	Datasets   int    // complete datasets (malformed ones included)
	Bytes      int    // dataset text bytes
	Fragments  int    // truncated duplicates dropped
	// FragmentOnly counts data messages that held only fragments;
	// Flooded is set after Options.FloodRun of them in a row.
	FragmentOnly int
	Flooded      bool
	// Gap is set when the message counter skipped while the group was open.
	Gap bool
	// Complete: closed by its END with no gap and no fragment-only
	// message, so its datasets are the whole list (docs/dlt-kpi.md §7).
	Complete bool
	Reason   AbortReason
	run      int // current run of fragment-only messages
}

// Event is one result of Push. Dataset and Err are views and values valid
// until the next call to Push; Clone the dataset to keep it.
type Event struct {
	Type    EventType
	Kind    Kind
	Source  Source
	Dataset Dataset
	Err     error
	// Orphan marks a dataset that arrived outside any group of its kind.
	Orphan bool
	// Group is the group an event concerns: the open group for datasets
	// in a group, the closed or aborted group for EventGroupEnd and
	// EventGroupAborted.
	Group Group
}

// Clone returns a copy of e whose dataset no longer aliases the pushed
// payload, to keep an event past the next Push.
func (e Event) Clone() Event {
	e.Dataset = e.Dataset.Clone()
	return e
}
