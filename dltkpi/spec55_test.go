package dltkpi

import (
	"strconv"
	"testing"
)

// TestSpec55 walks docs/dlt-kpi.md §5.5 "Other cases" row by row: one subtest
// per row, named after it, checking what the spec asks of the
// reassembler and of the tracker.
func TestSpec55(t *testing.T) {
	count := func(evs []EventType, want EventType) int {
		n := 0
		for _, e := range evs {
			if e == want {
				n++
			}
		}
		return n
	}

	t.Run("capture starts mid-group; message loss", func(t *testing.T) {
		f := newFeed()
		// The capture begins inside a NEW group: data, then its END.
		f.at(10000, "NEW", "5;1;a", "6;1;b")
		f.at(10000, "NEW", "END")
		st := f.r.Stats()
		if st.Orphans != 2 || st.EndWithoutBegin != 1 || count(f.evs, EventEndWithoutBegin) != 1 {
			t.Fatalf("orphans %d, END without BEG %d (events %v)", st.Orphans, st.EndWithoutBegin, f.evs)
		}
		// Orphans are used one by one ...
		f.proc(t, 5)
		f.proc(t, 6)
		// ... and never as a complete list: an orphan CHK dataset that
		// lists only pid 5 must not make pid 6 disappear.
		f.at(20000, "CHK", "5;a")
		if _, ok := f.t.Process(6); !ok {
			t.Error("an orphan CHK dataset was taken as the whole process list")
		}
		// Message loss inside a group (an MCNT gap): the group is not
		// complete, so it is not a list either.
		f.at(30000, "CHK", "BEG")
		f.src.MCNT += 2
		f.at(30000, "CHK", "5;a")
		f.at(30000, "CHK", "END")
		if _, ok := f.t.Process(6); !ok || f.r.Stats().McntGaps != 1 {
			t.Errorf("group with lost messages used as a list (gaps %d)", f.r.Stats().McntGaps)
		}
	})

	t.Run("empty lists are not sent", func(t *testing.T) {
		f := newFeed()
		f.group(10000, "NEW", "5;1;a")
		f.group(10000, "ACT", "5;300;900;1;1;0")
		// Next interval: no ACT group (nobody used CPU, or it was lost)
		// and no STP group (nothing ended).
		f.group(20000, "CHK", "5;a")
		p := f.proc(t, 5)
		if p.RSS != 900 || p.CPU != 300 {
			t.Errorf("a missing ACT group changed the process: rss %d cpu %d", p.RSS, p.CPU)
		}
		if f.t.Len() != 1 {
			t.Errorf("a missing STP group ended something: %d processes", f.t.Len())
		}
	})

	t.Run("three threads interleave", func(t *testing.T) {
		f := newFeed()
		f.at(10000, "CHK", "BEG")
		f.group(10001, "IRQ", "LOC;cpu0:5;") // a whole IRQ group inside CHK
		f.at(10002, "NEW", "BEG")            // NEW opens ...
		f.group(10003, "STP", "77")          // ... another thread's group between ...
		f.at(10002, "NEW", "5;1;a")          // ... its BEG and its data
		f.at(10000, "CHK", "1;/sbin/init")   // CHK data after all that
		f.at(10002, "NEW", "END")
		f.at(10000, "CHK", "END")
		st := f.r.Stats()
		if st.Groups[KindCHK] != 1 || st.Groups[KindIRQ] != 1 || st.Groups[KindNEW] != 1 || st.Groups[KindSTP] != 1 ||
			st.Aborted != 0 || st.Orphans != 0 || st.Incomplete != 0 {
			t.Fatalf("one open group per kind not kept: %+v", st)
		}
	})

	t.Run("first interval after start", func(t *testing.T) {
		f := newFeed()
		// dlt-kpi's first NEW group lists every process, zombies
		// included ("(kworker)" style comms, state not reported), and no
		// ACT precedes it.
		f.group(10000, "NEW", "1;0;/sbin/init", "2;0;(kthreadd)", "300;1;(defunct)", "301;300;sh -c x")
		if f.t.Len() != 4 {
			t.Fatalf("table from the first NEW group: %d processes, want 4", f.t.Len())
		}
		if p := f.proc(t, 301); p.HasACT || p.PPID != 300 {
			t.Errorf("pid 301: %+v", p)
		}
	})

	t.Run("dlt-kpi restart (new SEID)", func(t *testing.T) {
		f := newFeed()
		f.group(10000, "NEW", "5;1;a")
		f.at(20000, "CHK", "BEG")
		f.at(20000, "NEW", "BEG")
		f.src.SEID++ // restarted
		f.group(100, "NEW", "6;1;b")
		st := f.r.Stats()
		if st.SessionChanges != 1 || st.Aborted != 2 || count(f.evs, EventSessionChanged) != 1 {
			t.Errorf("old session's open groups not aborted: %+v", st)
		}
		if _, ok := f.t.Process(5); ok || f.t.Len() != 1 {
			t.Errorf("tracker not reset: %d processes", f.t.Len())
		}
	})

	t.Run("pid reuse within one interval", func(t *testing.T) {
		f := newFeed()
		f.group(10000, "NEW", "5;1;old")
		// Reused between two samples: no STP/NEW pair, the command is
		// stale until a NEW for the pid arrives; that NEW replaces it.
		f.group(20000, "CHK", "5;old")
		if p := f.proc(t, 5); string(p.Cmd) != "old" {
			t.Errorf("command %q before the NEW", p.Cmd)
		}
		f.group(20000, "NEW", "5;1;new")
		if p := f.proc(t, 5); string(p.Cmd) != "new" || f.t.Stats().Replaced != 1 {
			t.Errorf("reuse: %q, replaced %d", p.Cmd, f.t.Stats().Replaced)
		}
	})

	// NOAR is the extended header's 8-bit argument count; the payload,
	// not NOAR, decides what a message holds.
	noar := func(t *testing.T, n, hdr int) (datasets int, st Stats) {
		r := NewReassembler(Options{})
		args := []string{"STP"}
		for i := range n {
			args = append(args, strconv.Itoa(1000+i))
		}
		r.PushPayload(Source{SEID: 1, NOAR: hdr}, payload("STP", "BEG"), nil)
		r.PushPayload(Source{SEID: 1, MCNT: 1, NOAR: hdr}, payload(args...), nil)
		for r.Next() {
			if r.Event().Type == EventDataset {
				datasets++
			}
		}
		return datasets, r.Stats()
	}
	t.Run("NOAR overflow", func(t *testing.T) {
		// A header that claims more (or fewer) arguments than the payload
		// holds: counted, and the datasets present are still delivered.
		ds, st := noar(t, 3, 9)
		if ds != 3 || st.NOARMismatch != 2 {
			t.Errorf("datasets %d, NOAR mismatches %d (want 3, 2)", ds, st.NOARMismatch)
		}
	})
	t.Run("buffer raised with DLT_LOG_MSG_BUF_LEN > ~2 KB", func(t *testing.T) {
		// 300 STP datasets + the kind = 301 arguments; NOAR says 301 mod 256.
		ds, st := noar(t, 300, 301&0xff)
		if ds != 300 {
			t.Errorf("%d datasets delivered, want 300", ds)
		}
		if st.NOARMismatch != 1 { // the BEG message (2 arguments) with the same header
			t.Errorf("a wrapped NOAR counted as a mismatch: %d", st.NOARMismatch)
		}
	})

	t.Run("check_interval missing", func(t *testing.T) {
		f := newFeed()
		f.group(10000, "NEW", "5;1;a", "6;1;b")
		// CHK groups back to back, one TMSP unit apart. (A CHK group at
		// the very TMSP of a NEW may predate it, so it never removes.)
		for i := range 5 {
			f.group(uint32(10001+i), "CHK", "5;a", "6;b")
			if f.r.Stats().Groups[KindCHK] != i+1 {
				t.Fatalf("CHK group %d not complete: %+v", i, f.r.Stats())
			}
		}
		f.group(10006, "CHK", "5;a")
		if _, ok := f.t.Process(6); ok {
			t.Error("liveness lost with back-to-back CHK groups")
		}
	})

	t.Run("other limits: IRQ list cut mid-row", func(t *testing.T) {
		// /proc/interrupts read into 4 KiB: on a many-CPU machine the
		// list stops early, possibly inside a row. Such a group must not
		// be applied as the machine's IRQ table.
		f := newFeed()
		full := []string{"24;cpu0:1;cpu1:0;", "NMI;cpu0:0;cpu1:0;", "LOC;cpu0:100;cpu1:200;", "ERR;cpu0:0;"}
		f.group(10000, "IRQ", full...)
		f.group(20000, "IRQ", "24;cpu0:2;cpu1:0;", "NMI;cpu0:0;cp")
		if f.t.Stats().SuspectIRQ != 1 {
			t.Errorf("cut IRQ group not flagged: %+v", f.t.Stats())
		}
	})
	t.Run("other limits: dataset cut at 4094 characters", func(t *testing.T) {
		// dlt-kpi cuts a long dataset silently; what arrives is still a
		// dataset (the command is shorter), used like any other.
		f := newFeed()
		ds := "5;1;" + string(make([]byte, 0, 4090))
		for len(ds) < 4094 {
			ds += "x"
		}
		f.group(10000, "NEW", ds)
		if p := f.proc(t, 5); len(p.Cmd) != 4090 {
			t.Errorf("cut command: %d bytes", len(p.Cmd))
		}
	})

	t.Run("a data message with the identifier alone", func(t *testing.T) {
		f := newFeed()
		f.at(10000, "STP", "BEG")
		f.at(10000, "STP")
		f.at(10000, "STP", "5")
		f.at(10000, "STP", "END")
		st := f.r.Stats()
		if st.Invalid != 1 || count(f.evs, EventInvalid) != 1 || st.McntGaps != 0 {
			t.Errorf("invalid %d (events %v), gaps %d: want one Invalid, no gap", st.Invalid, f.evs, st.McntGaps)
		}
		if st.Datasets[KindSTP] != 1 || st.Groups[KindSTP] != 1 || count(f.evs, EventGroupEnd) != 1 {
			t.Errorf("the group around it: datasets %d, groups %d (events %v)", st.Datasets[KindSTP], st.Groups[KindSTP], f.evs)
		}
	})
	t.Run("daemon backlog replay", func(t *testing.T) {
		// The daemon replays its backlog: a group with an older TMSP
		// arrives after a newer one. The reassembler orders nothing by
		// time and does not take the older TMSP for an aged group.
		f := newFeed()
		f.group(500000, "NEW", "5;1;a")
		f.group(1000, "NEW", "6;1;b")
		st := f.r.Stats()
		if st.Groups[KindNEW] != 2 || st.Aborted != 0 {
			t.Errorf("replayed group: %+v", st)
		}
		f.proc(t, 5)
		f.proc(t, 6)
	})
}
