package dltkpi

import (
	"bytes"
	"encoding/binary"

	"github.com/perfwire/perfwire/internal/wire"
)

// Source identifies where a KPI message came from and when: the DLT
// header fields the reassembler needs. ECU, AppID and ContextID select
// the session; a new SEID for them means dlt-kpi restarted.
type Source struct {
	ECU, AppID, ContextID [4]byte
	SEID                  uint32 // dlt-kpi's pid (the DLT session id)
	MCNT                  uint8  // message counter, wraps 255 → 0
	TMSP                  uint32 // uptime in 0.1 ms; all messages of a group share it
	// NOAR is the extended header's argument count, or 0 when unknown.
	// It is 8 bits and wraps with very large messages (docs/dlt-kpi.md §5.5), so a
	// mismatch with the parsed arguments is counted, not fatal.
	NOAR int
}

// Options configure a [Reassembler], a [Tracker] and the [Session]
// that wires them: they bound their state and say when an open group is
// given up. The zero value means the defaults; each zero field is
// replaced by its default on its own. A Reassembler reads the group
// fields, a Tracker the table fields; each ignores the other's.
type Options struct {
	// MaxGroupDatasets and MaxGroupBytes abort a group that grows past
	// them (a group that never ends, or a flood). Later data messages of
	// that kind are orphans until the next BEG. Zero means
	// DefaultMaxGroupDatasets and DefaultMaxGroupBytes.
	MaxGroupDatasets int
	MaxGroupBytes    int
	// MaxGroupAge aborts an open group when a message of the same session
	// arrives more than this many TMSP units (0.1 ms) after its BEG; zero
	// means DefaultMaxGroupAge.
	MaxGroupAge uint32
	// FloodRun is the number of consecutive fragment-only messages after
	// which a group is flagged as flooded (docs/dlt-kpi.md §5.2); zero
	// means DefaultFloodRun.
	FloodRun int
	// MaxSessions bounds the (ECU, APID, CTID) sessions tracked at once;
	// the least recently used one is dropped, its open groups aborted.
	// Zero means DefaultMaxSessions.
	MaxSessions int

	MaxProcesses  int // processes in a Tracker's table; new pids beyond are dropped (DefaultMaxProcesses)
	MaxIRQs       int // interrupt names (DefaultMaxIRQs)
	MaxIRQCPUs    int // cpuN entries kept per interrupt (DefaultMaxIRQCPUs)
	MaxTombstones int // ended pids remembered to ignore late datasets (DefaultMaxTombstones)
	// MinIRQRows: an IRQ group with fewer rows is the tokenizer race of
	// docs/dlt-kpi.md §5.3, never a real /proc/interrupts, which always has the
	// architecture's own rows (NMI, LOC, … on x86; IPIs and Err on ARM).
	// Zero means DefaultMinIRQRows.
	MinIRQRows int
	// KeepEnded makes a Tracker keep each process it removes from the
	// table, for TakeEnded: exited processes and the earlier holders of
	// reused pids. Off, they are forgotten.
	KeepEnded bool
}

// The group defaults of [Options] are generous for dlt-kpi: a CHK group of a
// few thousand processes has well under 10,000 datasets and 1 MiB;
// groups are logged within milliseconds, so 60 s of age means the END
// was lost.
const (
	DefaultMaxGroupDatasets = 1 << 16
	DefaultMaxGroupBytes    = 16 << 20
	DefaultMaxGroupAge      = 600000
	DefaultFloodRun         = 3
	DefaultMaxSessions      = 8
)

func (o Options) withDefaults() Options {
	o.MaxGroupDatasets = wire.Default(o.MaxGroupDatasets, DefaultMaxGroupDatasets)
	o.MaxGroupBytes = wire.Default(o.MaxGroupBytes, DefaultMaxGroupBytes)
	o.MaxGroupAge = wire.Default(o.MaxGroupAge, DefaultMaxGroupAge)
	o.FloodRun = wire.Default(o.FloodRun, DefaultFloodRun)
	o.MaxSessions = wire.Default(o.MaxSessions, DefaultMaxSessions)
	return o
}

// Stats counts what the reassembler has seen, anomalies included.
type Stats struct {
	Messages     int           // KPI messages pushed (data and sync)
	Skipped      int           // non-KPI messages reported with Skip
	Invalid      int           // messages that failed to parse
	Datasets     [NumKinds]int // complete datasets per kind (malformed included)
	Malformed    int           // datasets that did not match their grammar
	Fragments    int           // truncated duplicates dropped
	FragmentOnly int           // data messages with only fragments
	// FragmentsRepeated counts fragments whose dataset starts the next
	// data message of the same kind, as libdlt and dlt-kpi intend (docs/dlt-kpi.md
	// §5.1); FragmentsLost counts those followed by something else, or
	// by nothing: that dataset never arrived whole.
	FragmentsRepeated int
	FragmentsLost     int
	Orphans           int           // datasets outside any group
	Groups            [NumKinds]int // groups closed by their END
	Incomplete        int           // of those, groups not Complete
	Aborted           int           // groups given up before their END
	Unterminated      int           // groups still open at Flush (also in Aborted)
	EndWithoutBegin   int
	McntGaps          int
	SessionChanges    int
	Evictions         int // sessions dropped for MaxSessions
	NOARMismatch      int // messages whose NOAR (mod 256) differs from their arguments
}

type reassemblerLimits struct {
	MaxGroupDatasets, MaxGroupBytes, MaxGroupAge, FloodRun, MaxSessions int
}

type session struct {
	_               [0]func() // not comparable: no equality function in the wasm build
	ecu, apid, ctid [4]byte
	seid            uint32
	mcnt            uint8
	used            uint64
	open            [NumKinds]bool
	groups          [NumKinds]Group
}

// Reassembler turns KPI messages, in arrival order, into datasets and
// group events (docs/dlt-kpi.md §7). It keeps at most one open group per kind and
// session, never buffers datasets, and needs no clock: time is TMSP.
// Use:
//
//	r := dltkpi.NewReassembler(dltkpi.Options{})
//	for each message { r.Push(src, m); for r.Next() { ev := r.Event() ... } }
//	r.Flush(); for r.Next() { ... }
//
// The zero value is not usable; a Reassembler is not safe for concurrent
// use.
type Reassembler struct {
	// limits are Options with their defaults, the age as an int: a
	// struct of ints needs no equality function in the wasm plugins,
	// Options does.
	limits   reassemblerLimits
	sessions []session
	clock    uint64
	queue    []Event
	qi       int
	ev       Event
	scanning bool
	scan     DatasetScanner
	dsTmpl   Event // Source, Kind, Orphan, Group for scanned datasets
	// tmplSet: ev holds dsTmpl's fields for the datasets of the message
	// being scanned, which are decoded into ev.Dataset one by one. The
	// template is copied once per message, not per dataset: copying the
	// 260-byte event and the dataset for each one was the most of Next's
	// time in the wasm plugins (with write barriers while the collector
	// runs).
	tmplSet bool
	stats   Stats
	// frag holds the text before the marker of the last fragment of each
	// kind until the next data message of that kind shows whether the
	// dataset was repeated; fragOpen says which are pending.
	frag     [NumKinds][]byte
	fragOpen [NumKinds]bool
}

// NewReassembler returns a reassembler with the given options (zero
// fields take their defaults).
func NewReassembler(o Options) *Reassembler {
	l := o.withDefaults()
	return &Reassembler{
		limits:   reassemblerLimits{l.MaxGroupDatasets, l.MaxGroupBytes, int(l.MaxGroupAge), l.FloodRun, l.MaxSessions},
		sessions: make([]session, 0, l.MaxSessions),
		queue:    make([]Event, 0, 2*NumKinds+8),
	}
}

// Stats returns the counters so far.
func (r *Reassembler) Stats() Stats { return r.stats }

// Skip counts a message that is not a KPI message.
func (r *Reassembler) Skip() { r.stats.Skipped++ }

// Reject reports a message of the KPI context that failed to parse
// (Parse's error), as an EventInvalid.
func (r *Reassembler) Reject(src Source, err error) {
	r.reset()
	r.stats.Invalid++
	// The bad message used a counter value: remember it, so that the
	// next good message is not reported as a gap.
	for i := range r.sessions {
		s := &r.sessions[i]
		if s.ecu == src.ECU && s.apid == src.AppID && s.ctid == src.ContextID && s.seid == src.SEID {
			s.mcnt = src.MCNT
		}
	}
	r.event(EventInvalid, KindNone, &src).Err = err
}

// PushPayload parses a verbose payload in byte order order (nil means
// little-endian) and pushes it, or rejects it if it does not parse.
func (r *Reassembler) PushPayload(src Source, payload []byte, order binary.ByteOrder) {
	m, err := Parser{Order: order}.Parse(payload)
	if err != nil {
		r.Reject(src, err)
		return
	}
	r.Push(src, m)
}

func (r *Reassembler) reset() {
	r.queue = r.queue[:0]
	r.qi = 0
	r.scanning = false
}

// OpenGroups returns how many groups are open, over all sessions.
func (r *Reassembler) OpenGroups() int {
	n := 0
	for i := range r.sessions {
		for _, o := range r.sessions[i].open {
			if o {
				n++
			}
		}
	}
	return n
}

// session finds or creates the session of src, reporting a restart.
func (r *Reassembler) session(src Source) *session {
	r.clock++
	for i := range r.sessions {
		s := &r.sessions[i]
		if s.ecu != src.ECU || s.apid != src.AppID || s.ctid != src.ContextID {
			continue
		}
		s.used = r.clock
		var t EventType // the event this message makes of its session, if any
		if s.seid != src.SEID {
			r.abortAll(s, src.TMSP, AbortSession)
			r.stats.SessionChanges++
			t = EventSessionChanged
			s.seid = src.SEID
		} else if src.MCNT != s.mcnt+1 {
			r.stats.McntGaps++
			t = EventMcntGap
			for k := range s.open {
				if s.open[k] {
					s.groups[k].Gap = true
				}
			}
		}
		if t != 0 {
			r.event(t, KindNone, &src)
		}
		s.mcnt = src.MCNT
		return s
	}
	if len(r.sessions) == r.limits.MaxSessions {
		lru := 0
		for i := range r.sessions {
			if r.sessions[i].used < r.sessions[lru].used {
				lru = i
			}
		}
		r.abortAll(&r.sessions[lru], src.TMSP, AbortSession)
		r.stats.Evictions++
		r.sessions = append(r.sessions[:lru], r.sessions[lru+1:]...)
	}
	r.sessions = append(r.sessions, session{ecu: src.ECU, apid: src.AppID, ctid: src.ContextID, seid: src.SEID, mcnt: src.MCNT, used: r.clock})
	return &r.sessions[len(r.sessions)-1]
}

func (r *Reassembler) abortAll(s *session, tmsp uint32, why AbortReason) {
	for k := range s.open {
		if s.open[k] {
			r.abort(s, Kind(k), tmsp, why)
		}
	}
}

// abort ends group k of s for why, at tmsp, with an EventGroupAborted.
// Not inlined: Push would hold three copies.
//
//go:noinline
func (r *Reassembler) abort(s *session, k Kind, tmsp uint32, why AbortReason) {
	g := s.groups[k]
	g.Reason = why
	if why != AbortUnterminated {
		g.End = tmsp
	}
	s.open[k] = false
	r.stats.Aborted++
	if why == AbortUnterminated {
		r.stats.Unterminated++
	}
	src := Source{ECU: s.ecu, AppID: s.apid, ContextID: s.ctid, SEID: s.seid, TMSP: tmsp}
	r.event(EventGroupAborted, k, &src).Group = g
}

// event queues an event of type t and kind k from src and returns it,
// for the caller to set the rest: one append of the 260-byte event, not
// one made and copied by each caller (module size; see wasm/size).
//
//go:noinline
func (r *Reassembler) event(t EventType, k Kind, src *Source) *Event {
	r.queue = append(r.queue, Event{Type: t, Kind: k, Source: *src})
	return &r.queue[len(r.queue)-1]
}

// Push feeds one parsed KPI message; read its events with Next and Event
// before the next Push. Events of a previous Push not yet read are
// dropped.
func (r *Reassembler) Push(src Source, m Message) {
	r.reset()
	r.stats.Messages++
	if src.NOAR != 0 && src.NOAR != m.Arguments&0xff {
		r.stats.NOARMismatch++
	}
	s := r.session(src)
	// Give up groups that have been open too long for this session.
	for k := range s.open {
		if s.open[k] {
			if age := int32(src.TMSP - s.groups[k].Begin); age > 0 && int(uint32(age)) > r.limits.MaxGroupAge {
				r.abort(s, Kind(k), src.TMSP, AbortAge)
			}
		}
	}
	k := m.Kind
	switch m.Sync {
	case SyncBegin:
		if s.open[k] {
			r.abort(s, k, src.TMSP, AbortNewBegin)
		}
		s.open[k] = true
		s.groups[k] = Group{Kind: k, Begin: src.TMSP, End: src.TMSP}
		r.event(EventGroupBegin, k, &src).Group = s.groups[k]
		return
	case SyncEnd:
		if !s.open[k] {
			r.stats.EndWithoutBegin++
			r.event(EventEndWithoutBegin, k, &src)
			return
		}
		g := &s.groups[k]
		g.End = src.TMSP
		g.Complete = !g.Gap && g.FragmentOnly == 0
		s.open[k] = false
		r.stats.Groups[k]++
		if !g.Complete {
			r.stats.Incomplete++
		}
		r.event(EventGroupEnd, k, &src).Group = *g
		return
	}
	// A data message.
	if r.fragOpen[k] {
		r.fragOpen[k] = false
		first := m.Scanner()
		if first.Next() && bytes.HasPrefix(first.d.Raw, r.frag[k]) {
			r.stats.FragmentsRepeated++
		} else {
			r.stats.FragmentsLost++
		}
	}
	r.stats.Datasets[k] += m.Datasets
	r.stats.Fragments += m.Fragments
	orphan := !s.open[k]
	if !orphan {
		g := &s.groups[k]
		if g.Datasets+m.Datasets > r.limits.MaxGroupDatasets || g.Bytes+m.Bytes > r.limits.MaxGroupBytes {
			r.abort(s, k, src.TMSP, AbortLimit)
			orphan = true
		} else {
			g.End = src.TMSP
			g.Messages++
			g.Datasets += m.Datasets
			g.Bytes += m.Bytes
			g.Fragments += m.Fragments
			if m.Datasets == 0 {
				g.FragmentOnly++
				g.run++
				if g.run >= r.limits.FloodRun {
					g.Flooded = true
				}
			} else {
				g.run = 0
			}
		}
	}
	if m.Datasets == 0 {
		r.stats.FragmentOnly++
		ev := r.event(EventFragmentOnly, k, &src)
		ev.Orphan = orphan
		if !orphan {
			ev.Group = s.groups[k]
		}
	}
	if orphan {
		r.stats.Orphans += m.Datasets
	}
	r.dsTmpl = Event{Kind: k, Source: src, Orphan: orphan}
	if !orphan {
		r.dsTmpl.Group = s.groups[k]
	}
	r.scan = m.Scanner()
	r.scanning, r.tmplSet = true, false
}

// Flush aborts every open group as unterminated (end of input); read the
// events with Next.
func (r *Reassembler) Flush() {
	r.reset()
	for k, open := range r.fragOpen {
		if open {
			r.stats.FragmentsLost++
			r.fragOpen[k] = false
		}
	}
	for i := range r.sessions {
		s := &r.sessions[i]
		r.abortAll(s, 0, AbortUnterminated)
	}
}

// Next advances to the next event of the last Push or Flush and reports
// whether there is one.
func (r *Reassembler) Next() bool {
	if r.qi < len(r.queue) {
		r.ev = r.queue[r.qi]
		r.qi++
		return true
	}
	if r.scanning {
		// A Push's queued events all come before its datasets (whatever
		// queues an event starts with reset, which ends the scan), so ev
		// keeps the template from one dataset to the next.
		if !r.tmplSet {
			r.ev, r.tmplSet = r.dsTmpl, true
		}
		if !r.scan.nextInto(&r.ev.Dataset) {
			r.scanning = false
			return false
		}
		r.ev.Err = r.scan.err
		r.ev.Type = EventDataset
		if r.ev.Dataset.Truncated {
			r.ev.Type = EventFragment
			raw := r.ev.Dataset.Raw
			r.frag[r.ev.Kind] = append(r.frag[r.ev.Kind][:0], raw[:len(raw)-len(TruncationMarker)]...)
			r.fragOpen[r.ev.Kind] = true
		} else if r.ev.Err != nil {
			r.stats.Malformed++
		}
		return true
	}
	return false
}

// Event returns the event Next advanced to.
func (r *Reassembler) Event() Event { return r.ev }
