package dltkpi

import (
	"bytes"
	"slices"

	"github.com/perfwire/perfwire/internal/wire"
)

// TrackerOptions is the options type [NewTracker] took before [Options]
// held the tracker's bounds too.
//
// Deprecated: use [Options], whose MaxProcesses, MaxIRQs, MaxIRQCPUs,
// MaxTombstones, MinIRQRows and KeepEnded fields are these.
type TrackerOptions = Options

type trackerLimits struct{ MaxProcesses, MaxIRQs, MaxIRQCPUs, MaxTombstones, MinIRQRows int }

// The table defaults of [Options] fit a large Linux host (pid_max 4 M
// is far more than any table a viewer shows).
const (
	DefaultMaxProcesses  = 1 << 16
	DefaultMaxIRQs       = 4096
	DefaultMaxIRQCPUs    = 1024
	DefaultMaxTombstones = 4096
	DefaultMinIRQRows    = 4
)

// TrackerStats counts what the tracker could not take at face value.
type TrackerStats struct {
	Replaced int // NEW for a pid already in the table (pid reuse or duplicate)
	Stale    int // datasets older than what the table already holds
	// InferredStops counts pids absent from a complete CHK group: they
	// are gone, and their STP is late (the process thread logs it after
	// CHK) or lost; LateStops counts STPs that came after the inference.
	InferredStops int
	LateStops     int
	UnknownStop   int // STP for a pid the tracker never knew
	Dropped       int // datasets dropped for the bounds of Options
	SuspectIRQ    int // IRQ groups not applied (docs/dlt-kpi.md §5.3)
	Malformed     int // malformed datasets seen
	// CPUOver1000 counts ACT samples above 1000 per mille: dlt-kpi
	// undercounted the CPUs (it reads only 4 KiB of /proc/cpuinfo, docs/dlt-kpi.md
	// §3.3), so the CPU values of that stream are too large.
	CPUOver1000 int
	Resets      int // session changes
}

type groupState struct {
	_     [0]func() // not comparable: no equality function in the wasm build
	gen   uint32
	open  bool
	begin uint32
}

// Tracker maintains the process table and interrupt rates a viewer
// shows, from reassembler events (docs/dlt-kpi.md §8), for one dlt-kpi: a new
// session (dlt-kpi restarted) resets it; streams from several ECUs need
// one Tracker each. It copies what it keeps.
// Groups may arrive late, interleaved or not at all: only complete
// groups are used to infer absences. A Tracker is not safe for
// concurrent use.
type Tracker struct {
	// limits are the table bounds of Options, keepEnded its KeepEnded: a
	// struct of ints only needs no equality function in the wasm plugins,
	// one with a bool does.
	limits    trackerLimits
	keepEnded bool
	procs     pidTable // pid → its index in list
	// list holds the processes in no order. The loops over every process
	// at each group's end range over it: over a Go map they were 4 % of a
	// wasm plugin's decode.
	list  []*Process
	tombs pidTable // pid → TMSP of its STP
	irqs  map[string]*irqState
	// irqNames are the keys of irqs, kept sorted as they are added, so
	// that slices.Sort's string instantiation is not linked (module
	// size; see wasm/size).
	irqNames []string
	groups   [NumKinds]groupState
	// The open IRQ group's rows: each names where its name and counts
	// end in rowNames and rowCounts, which hold them back to back (a copy
	// of each row without an allocation per row).
	rows      []irqRow
	rowNames  []byte
	rowCounts []int64
	rowsBad   bool
	lastRows  int // rows of the last good IRQ group
	stopped   []int32
	stats     TrackerStats
	scratch   []int64
	ended     []Ended
	gone      []int // the pids a CHK group missed
}

// Ended is a process the tracker removed from its table: its last state
// and when and why it ended.
type Ended struct {
	_        [0]func() // not comparable: no equality function in the wasm plugins
	*Process           // no longer the tracker's: the caller may keep it
	// End is the TMSP at which the process was known to be gone: its STP
	// dataset's, the begin of the complete CHK group that missed it, the
	// NEW dataset's that reused its pid, or the first message of a new
	// dlt-kpi session.
	End uint32
	// By is what ended it: KindSTP, KindCHK, KindNEW, or KindNone for a
	// new session.
	By Kind
}

// TakeEnded returns the processes removed from the table since the last
// call, in the order they were removed (those that one CHK group missed
// or one new session ended by pid), when Options.KeepEnded is set.
// The slice is valid until the next Apply; the processes it points to are
// the caller's.
func (t *Tracker) TakeEnded() []Ended {
	e := t.ended
	t.ended = t.ended[:0]
	return e
}

// remove deletes pid's entry, keeping it for TakeEnded if asked to.
// Kept out of line at its callers: module size; see wasm/size.
//
//go:noinline
func (t *Tracker) remove(p *Process, end uint32, by Kind) {
	if t.keepEnded {
		t.ended = append(t.ended, Ended{Process: p, End: end, By: by})
	}
	t.procs.del(p.PID)
	if last := t.list[len(t.list)-1]; last != p {
		t.list[p.slot], last.slot = last, p.slot
		t.procs.put(last.PID, uint32(p.slot))
	}
	t.list[len(t.list)-1] = nil
	t.list = t.list[:len(t.list)-1]
}

// NewTracker returns an empty tracker bounded by o's table fields
// (MaxProcesses ... KeepEnded; zero fields take their defaults).
func NewTracker(o Options) *Tracker {
	d := o
	d.MaxProcesses = wire.Default(d.MaxProcesses, DefaultMaxProcesses)
	d.MaxIRQs = wire.Default(d.MaxIRQs, DefaultMaxIRQs)
	d.MaxIRQCPUs = wire.Default(d.MaxIRQCPUs, DefaultMaxIRQCPUs)
	d.MaxTombstones = wire.Default(d.MaxTombstones, DefaultMaxTombstones)
	d.MinIRQRows = wire.Default(d.MinIRQRows, DefaultMinIRQRows)
	t := &Tracker{limits: trackerLimits{d.MaxProcesses, d.MaxIRQs, d.MaxIRQCPUs, d.MaxTombstones, d.MinIRQRows}, keepEnded: d.KeepEnded}
	t.reset()
	return t
}

func (t *Tracker) reset() {
	t.procs.clear()
	clear(t.list)
	t.list = t.list[:0]
	t.tombs.clear()
	t.irqs = map[string]*irqState{}
	t.irqNames = t.irqNames[:0]
	t.groups = [NumKinds]groupState{}
	t.clearRows()
	t.lastRows = 0
	t.stopped = t.stopped[:0]
}

// Stats returns the tracker's counters.
func (t *Tracker) Stats() TrackerStats { return t.stats }

// Len is the number of processes in the table.
func (t *Tracker) Len() int { return t.procs.n }

// proc returns the entry for pid.
func (t *Tracker) proc(pid int32) (*Process, bool) {
	i, ok := t.procs.get(pid)
	if !ok {
		return nil, false
	}
	return t.list[i], true
}

// Process returns a copy of the entry for pid.
func (t *Tracker) Process(pid int32) (Process, bool) {
	p, ok := t.proc(pid)
	if !ok {
		return Process{}, false
	}
	return *p, true
}

// Processes returns copies of the table's entries in ascending pid order.
func (t *Tracker) Processes() []Process {
	// Sorting the keys, not the 200-byte rows, keeps the sort small in
	// the wasm plugins (slices.Sort on []int is already in the runtime).
	pids := make([]int, 0, len(t.list))
	for _, p := range t.list {
		pids = append(pids, int(p.PID))
	}
	slices.Sort(pids)
	out := make([]Process, 0, len(pids))
	for _, pid := range pids {
		p, _ := t.proc(int32(pid))
		out = append(out, *p)
	}
	return out
}

// Apply updates the table with one reassembler event.
func (t *Tracker) Apply(ev Event) { t.apply(&ev) }

// apply is Apply of an event the caller keeps: Session hands the
// reassembler's own, without a copy of its 260 bytes per event.
func (t *Tracker) apply(ev *Event) {
	k := ev.Kind
	switch ev.Type {
	case EventSessionChanged:
		t.stats.Resets++
		if t.keepEnded {
			for _, p := range t.Processes() { // in pid order
				q, _ := t.proc(p.PID)
				t.remove(q, ev.Source.TMSP, KindNone)
			}
		}
		t.reset()
	case EventGroupBegin:
		g := &t.groups[k]
		g.gen++
		g.open, g.begin = true, ev.Source.TMSP
		if k == KindIRQ {
			t.clearRows()
			t.rowsBad = false
		}
	case EventDataset:
		if ev.Err != nil {
			t.stats.Malformed++
			if k == KindIRQ && !ev.Orphan {
				t.rowsBad = true
			}
			return
		}
		t.dataset(ev)
	case EventFragment:
		if d, ok := ParseFragment(k, ev.Dataset.Raw); ok {
			if !t.procs.has(d.PID) {
				if p := t.create(d.PID, ev.Source.TMSP); p != nil {
					p.Partial = true
					t.setCmd(p, d.Cmd)
					if k == KindNEW {
						p.PPID, p.PPIDKnown = d.PPID, true
					}
				}
			}
		}
	case EventGroupEnd:
		t.groups[k].open = false
		t.groupEnd(k, ev.Group, ev.Group.Complete)
	case EventGroupAborted:
		t.groups[k].open = false
		t.groupEnd(k, ev.Group, false)
	}
}

func (t *Tracker) dataset(ev *Event) {
	d, now := &ev.Dataset, ev.Source.TMSP
	inGroup := !ev.Orphan && t.groups[d.Kind].open
	if d.Kind == KindNEW || d.Kind == KindCHK || d.Kind == KindACT {
		if stop, ok := t.tombs.get(d.PID); ok {
			if int32(now-stop) < 0 { // older than the pid's STP: late
				t.stats.Stale++
				return
			}
			t.tombs.del(d.PID)
		}
	}
	switch d.Kind {
	case KindNEW:
		p, ok := t.proc(d.PID)
		switch {
		case ok && p.PPIDKnown && !p.Partial:
			// A second NEW: pid reuse, or a late NEW of the old process.
			if int32(now-p.FirstSeen) < 0 {
				t.stats.Stale++
				return
			}
			t.stats.Replaced++
			t.remove(p, now, KindNEW)
			if p = t.create(d.PID, now); p == nil {
				return
			}
		case ok:
			// Known from CHK, ACT or a fragment, whose thread may log before
			// the NEW group it belongs to: complete the entry.
			if int32(now-p.FirstSeen) < 0 {
				p.FirstSeen = now
			}
			p.Partial = false
		default:
			if p = t.create(d.PID, now); p == nil {
				return
			}
		}
		p.PPID, p.PPIDKnown = d.PPID, true
		t.setCmd(p, d.Cmd)
		p.StatShifted = p.CmdKind == CmdCommCut || (d.PPID == 0 && d.PID > 2 && p.CmdKind != CmdNull)
		p.chkGen = t.groups[KindCHK].gen
	case KindCHK:
		p := t.get(d.PID, now)
		if p == nil {
			return
		}
		if p.CmdKind == CmdUnknown || p.Partial {
			t.setCmd(p, d.Cmd)
			p.Partial = false
			if p.CmdKind == CmdCommCut {
				p.StatShifted = true
			}
		}
		p.LastSeen = now
		if inGroup {
			p.chkGen = t.groups[KindCHK].gen
		}
	case KindSTP:
		p, ok := t.proc(d.PID)
		if late := t.tombs.has(d.PID); !ok && late {
			t.stats.LateStops++
		} else if !ok {
			t.stats.UnknownStop++
		}
		t.tomb(d.PID, now)
		if !ok {
			return
		}
		if inGroup {
			p.ending, p.stopAt = true, now
			t.stopped = append(t.stopped, d.PID)
		} else {
			t.remove(p, now, KindSTP)
		}
	case KindACT:
		p := t.get(d.PID, now)
		if p == nil {
			return
		}
		if p.HasACT && int32(now-p.ACTTime) <= 0 {
			t.stats.Stale++
			return
		}
		if p.HasACT {
			p.Interval = now - p.ACTTime
			p.HasDelta = d.Ctx >= p.Ctx && d.IO >= p.IO
			p.CtxDelta, p.IODelta = 0, 0
			if p.HasDelta {
				p.CtxDelta, p.IODelta = d.Ctx-p.Ctx, d.IO-p.IO
			}
		}
		if d.CPU > 1000 {
			t.stats.CPUOver1000++
		}
		p.HasACT, p.ACTTime, p.LastSeen = true, now, now
		p.CPU, p.RSS, p.Ctx, p.IO, p.IOWait = d.CPU, d.RSS, d.Ctx, d.IO, d.IOWait
		if inGroup {
			p.actGen = t.groups[KindACT].gen
		}
	case KindIRQ:
		t.scratch = t.scratch[:0]
		// Counts' loop, without the range over its iterator (a kilobyte
		// of WebAssembly code).
		counts := d.counts()
		for off := 0; off < len(counts); {
			cpu, n, next, err := irqEntry(counts, off)
			if err != nil || cpu != len(t.scratch) || len(t.scratch) >= t.limits.MaxIRQCPUs {
				break // cpu indexes are 0, 1, 2, …; anything else is garbage
			}
			t.scratch = append(t.scratch, n)
			off = next
		}
		if inGroup {
			if len(t.rows) >= t.limits.MaxIRQs {
				t.stats.Dropped++
				t.rowsBad = true
				return
			}
			t.rowNames = append(t.rowNames, d.IRQ...)
			t.rowCounts = append(t.rowCounts, t.scratch...)
			t.rows = append(t.rows, irqRow{nameEnd: len(t.rowNames), countsEnd: len(t.rowCounts)})
			return
		}
		if goodCounts(t.scratch) {
			t.applyIRQ(d.IRQ, t.scratch, now)
		}
	}
}

func (t *Tracker) tomb(pid int32, now uint32) {
	if t.tombs.n >= t.limits.MaxTombstones {
		if old, ok := t.tombs.some(); ok { // drop any one: the table stays bounded
			t.tombs.del(old)
		}
	}
	t.tombs.put(pid, now)
}

// get returns the entry for pid, creating an unnamed one.
func (t *Tracker) get(pid int32, now uint32) *Process {
	if p, ok := t.proc(pid); ok {
		return p
	}
	return t.create(pid, now)
}

func (t *Tracker) create(pid int32, now uint32) *Process {
	if t.procs.n >= t.limits.MaxProcesses {
		t.stats.Dropped++
		return nil
	}
	p := &Process{PID: pid, FirstSeen: now, LastSeen: now, slot: len(t.list)}
	t.procs.put(pid, uint32(len(t.list)))
	t.list = append(t.list, p)
	return p
}

// setCmd keeps a copy of a NEW's or CHK's command. Not inlined: dataset
// calls it twice.
//
//go:noinline
func (t *Tracker) setCmd(p *Process, cmd []byte) {
	p.Cmd = bytes.Clone(cmd)
	p.CmdKind = ClassifyCmd(cmd)
}

func (t *Tracker) groupEnd(k Kind, g Group, complete bool) {
	gen := t.groups[k].gen
	switch k {
	case KindSTP:
		for _, pid := range t.stopped {
			if p, ok := t.proc(pid); ok && p.ending {
				t.remove(p, p.stopAt, KindSTP)
			}
		}
		t.stopped = t.stopped[:0]
	case KindACT:
		if !complete {
			return
		}
		for _, p := range t.list {
			if p.HasACT && p.actGen != gen && int32(g.Begin-p.ACTTime) > 0 {
				p.CPU, p.IOWait = 0, 0
			}
		}
	case KindCHK:
		if !complete {
			return
		}
		// In pid order, so that what TakeEnded returns does not depend on
		// the map's order.
		gone := t.gone[:0]
		for _, p := range t.list {
			if p.chkGen != gen && int32(g.Begin-p.FirstSeen) > 0 {
				gone = append(gone, int(p.PID))
			}
		}
		slices.Sort(gone)
		for _, pid := range gone {
			t.stats.InferredStops++
			p, _ := t.proc(int32(pid))
			t.remove(p, g.Begin, KindCHK)
			t.tomb(int32(pid), g.Begin)
		}
		t.gone = gone
	case KindIRQ:
		suspect := t.rowsBad || len(t.rows) < t.lastRows/2 || len(t.rows) < t.limits.MinIRQRows
		suspect = suspect || !goodCounts(t.rowCounts)
		if suspect {
			t.stats.SuspectIRQ++
		}
		// A suspect group is never applied; an aborted one only row by
		// row (never inferring absences), a complete one as a whole.
		for i := 0; !suspect && i < len(t.rows); i++ {
			name, counts := t.row(i)
			t.applyIRQ(name, counts, g.Begin)
		}
		if complete && !suspect {
			t.lastRows = len(t.rows)
		}
		t.clearRows()
	}
}

// row returns the name and counts of the open IRQ group's row i.
func (t *Tracker) row(i int) (name []byte, counts []int64) {
	n0, c0 := 0, 0
	if i > 0 {
		n0, c0 = t.rows[i-1].nameEnd, t.rows[i-1].countsEnd
	}
	return t.rowNames[n0:t.rows[i].nameEnd], t.rowCounts[c0:t.rows[i].countsEnd]
}

func (t *Tracker) clearRows() {
	t.rows, t.rowNames, t.rowCounts = t.rows[:0], t.rowNames[:0], t.rowCounts[:0]
}
