package dltkpi

import "github.com/perfwire/perfwire/dlt"

// Session is the pipeline from DLT messages to a process table that
// perfwire kpi, kpi top, the wasm plugin and the viewer share: a
// [Selector] picks dlt-kpi's messages, a [Reassembler] groups their
// datasets and a [Tracker] applies each event as it comes out:
//
//	s := dltkpi.NewSession(dltkpi.Options{})
//	for r.Next() { // a dlt.Scanner, Reader or Feeder
//		s.Push(r.Message())
//		for s.Next() {
//			ev := s.Event() // already applied to s.Tracker()
//		}
//	}
//	s.End()
//	for s.Next() {
//		...
//	}
type Session struct {
	_ [0]func() // not comparable (it never was, usefully): no equality function in the wasm plugins
	// Sel picks the messages Push hands on (zero: dlt-kpi's defaults).
	Sel   Selector
	r     *Reassembler
	t     *Tracker
	open  int
	ended bool
}

// NewSession returns a session with a reassembler and a tracker both
// made with o.
func NewSession(o Options) *Session {
	return &Session{r: NewReassembler(o), t: NewTracker(o)}
}

// Push hands one DLT message to the reassembler; the events it completes
// come out of Next.
func (s *Session) Push(m dlt.Message) { s.r.PushDLT(s.Sel, m) }

// End declares the input over: the groups still open are counted
// (OpenGroups keeps that count) and flushed, and their events come out of
// Next.
func (s *Session) End() {
	s.open = s.r.OpenGroups()
	s.ended = true
	s.r.Flush()
}

// Next applies the reassembler's next event to the tracker and reports
// whether there was one.
func (s *Session) Next() bool {
	if !s.r.Next() {
		return false
	}
	s.t.apply(&s.r.ev)
	return true
}

// Event returns the event Next applied last.
func (s *Session) Event() Event { return s.r.ev }

// Current returns the event Next applied last, as Event does, without
// copying it: it is valid until the next call to Next, Push or End and
// must not be modified. A loop over every event of a large capture
// (the wasm plugin's) spends less so.
func (s *Session) Current() *Event { return &s.r.ev }

// Tracker returns the process table the events build.
func (s *Session) Tracker() *Tracker { return s.t }

// Stats returns the reassembler's counters.
func (s *Session) Stats() Stats { return s.r.Stats() }

// OpenGroups is the number of groups still open: now, or when End was
// called.
func (s *Session) OpenGroups() int {
	if s.ended {
		return s.open
	}
	return s.r.OpenGroups()
}
