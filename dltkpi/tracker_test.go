package dltkpi

import (
	"bytes"
	"testing"
)

// track replays a capture through a reassembler and a tracker and calls
// seen after every event.
func track(t testing.TB, name string, seen func(*Tracker)) *Tracker {
	r := NewReassembler(Options{})
	tr := NewTracker(Options{})
	drain := func() {
		for r.Next() {
			tr.Apply(r.Event())
			if seen != nil {
				seen(tr)
			}
		}
	}
	for _, cm := range readCapture(t, name) {
		if cm.isKPI() {
			r.PushPayload(cm.source(), cm.payload, byteOrder(cm.bigEndian))
			drain()
		}
	}
	r.Flush()
	drain()
	return tr
}

// expectedCmd derives what dlt-kpi reports from what /proc had (docs/dlt-kpi.md
// §3.1): argv[0]; or, when it is empty, the comm in parentheses cut at
// the first whitespace (losing the closing parenthesis).
func expectedCmd(p truthProc) []byte {
	if len(p.argv0) > 0 {
		return p.argv0
	}
	if i := bytes.IndexAny(p.comm, " \t\n"); i >= 0 {
		return append([]byte("("), p.comm[:i]...)
	}
	return append(append([]byte("("), p.comm...), ')')
}

// TestTrackerTruth checks every spawned process of each capture against
// its /proc truth row: it must appear in the tracker with the pid, ppid
// and command dlt-kpi reported, and differ from /proc only as the spec
// explains (ppid 0 and shifted stat fields for a comm with whitespace,
// argv[0] only, (comm) fallbacks, (null) for vanished processes, a
// fragment prefix for an argv[0] too long for any message).
func TestTrackerTruth(t *testing.T) {
	for _, name := range []string{"kpi-odd", "kpi-huge-argv0"} {
		truth := readTruth(t, name)
		best := map[int32]Process{}
		track(t, name, func(tr *Tracker) {
			for _, tp := range truth {
				if p, ok := tr.Process(tp.pid); ok && (p.PPIDKnown || p.Partial) {
					if old, had := best[tp.pid]; !had || !old.HasACT || p.HasACT {
						p.Cmd = bytes.Clone(p.Cmd)
						best[tp.pid] = p
					}
				}
			}
		})
		for _, tp := range truth {
			p, ok := best[tp.pid]
			if !ok {
				t.Errorf("%s: pid %d (%s) never in the tracker", name, tp.pid, tp.label)
				continue
			}
			commSpace := bytes.ContainsAny(tp.comm, " \t\n")
			wantPPID := tp.ppid
			if commSpace {
				wantPPID = 0
			}
			want := expectedCmd(tp)
			switch {
			case p.CmdKind == CmdNull:
				if p.PPID != 0 {
					t.Errorf("%s: pid %d: (null) with ppid %d", name, tp.pid, p.PPID)
				}
			case p.Partial:
				if !bytes.HasPrefix(want, p.Cmd) || len(p.Cmd) >= len(want) || len(want) <= 1300 {
					t.Errorf("%s: pid %d (%s): partial cmd %q is not a prefix of the too-long argv[0]", name, tp.pid, tp.label, p.Cmd)
				}
			case !bytes.Equal(p.Cmd, want):
				t.Errorf("%s: pid %d (%s): cmd %q, want %q", name, tp.pid, tp.label, p.Cmd, want)
			}
			if p.PPID != wantPPID && p.CmdKind != CmdNull {
				t.Errorf("%s: pid %d (%s): ppid %d, want %d", name, tp.pid, tp.label, p.PPID, wantPPID)
			}
			if p.StatShifted != commSpace {
				t.Errorf("%s: pid %d (%s): stat-shifted %v, comm %q", name, tp.pid, tp.label, p.StatShifted, tp.comm)
			}
			if p.HasACT {
				bytesRSS := p.RSSBytes(4096)
				truthBytes := tp.rssPages * 4096
				if commSpace {
					// "RSS" is the virtual size in bytes: far above the real RSS.
					if p.RSS <= truthBytes {
						t.Errorf("%s: pid %d: shifted RSS %d not the vsize (rss %d bytes)", name, tp.pid, p.RSS, truthBytes)
					}
				} else if bytesRSS < truthBytes*3/4 || bytesRSS > truthBytes*4/3 {
					t.Errorf("%s: pid %d (%s): RSS %d pages, /proc had %d", name, tp.pid, tp.label, p.RSS, tp.rssPages)
				}
			}
		}
	}
}

// TestTrackerFinalTable checks the table after kpi-odd: dlt-kpi itself is
// alive with its ACT values, the spawned processes are gone (each had an
// STP), and no anomaly was needed to get there.
func TestTrackerFinalTable(t *testing.T) {
	tr := track(t, "kpi-odd", nil)
	p, ok := tr.Process(14698)
	if !ok || string(p.Cmd) != "/usr/bin/dlt-kpi" || !p.HasACT || p.RSS == 0 {
		t.Fatalf("dlt-kpi entry: %+v (found %v)", p, ok)
	}
	for _, tp := range readTruth(t, "kpi-odd") {
		if _, ok := tr.Process(tp.pid); ok {
			t.Errorf("pid %d (%s) still in the table after its STP", tp.pid, tp.label)
		}
	}
	st := tr.Stats()
	if st.Replaced != 0 || st.UnknownStop != 0 || st.InferredStops != st.LateStops || st.Dropped != 0 {
		t.Errorf("stats %+v", st)
	}
	irqs := tr.IRQs()
	if len(irqs) < 60 {
		t.Fatalf("%d IRQ rates", len(irqs))
	}
	var loc bool
	for _, r := range irqs {
		if r.Name == "LOC" && r.HasDelta && r.PerSecond() > 10 {
			loc = true
		}
	}
	if !loc {
		t.Error("no LOC timer interrupt rate")
	}
}

// TestTrackerSuspectIRQ: the excerpt's three corrupted IRQ groups (a
// single short row, cpu0:-1, cpu0:INT64_MAX) are reported and not applied.
func TestTrackerSuspectIRQ(t *testing.T) {
	tr := track(t, "excerpt-irq-strtok-race", nil)
	if got := tr.Stats().SuspectIRQ; got != 3 {
		t.Errorf("%d suspect IRQ groups, want 3", got)
	}
	for _, r := range tr.IRQs() {
		if r.Count < 0 || r.Delta < 0 || r.Count == 1<<63-1 {
			t.Errorf("corrupt value applied: %+v", r)
		}
	}
}
