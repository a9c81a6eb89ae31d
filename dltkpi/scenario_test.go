package dltkpi

import "testing"

// feed drives a reassembler and a tracker with messages given as
// argument lists; each message gets the next MCNT.
type feed struct {
	r   *Reassembler
	t   *Tracker
	src Source
	evs []EventType
}

func newFeed() *feed {
	return &feed{r: NewReassembler(Options{}), t: NewTracker(Options{}), src: Source{SEID: 7}}
}

func (f *feed) at(tmsp uint32, args ...string) {
	f.src.TMSP = tmsp
	f.r.PushPayload(f.src, payload(args...), nil)
	f.src.MCNT++
	for f.r.Next() {
		f.evs = append(f.evs, f.r.Event().Type)
		f.t.Apply(f.r.Event())
	}
}

func (f *feed) group(tmsp uint32, kind string, datasets ...string) {
	f.at(tmsp, kind, "BEG")
	f.at(tmsp, append([]string{kind}, datasets...)...)
	f.at(tmsp, kind, "END")
}

func (f *feed) proc(t *testing.T, pid int32) Process {
	t.Helper()
	p, ok := f.t.Process(pid)
	if !ok {
		t.Fatalf("pid %d not in the table", pid)
	}
	return p
}

// A complete ACT group that omits a pid means it used no CPU: cpu drops
// to 0, rss stays. A missing ACT group changes nothing.
func TestTrackerACTAbsence(t *testing.T) {
	f := newFeed()
	f.group(10000, "NEW", "10;1;a", "11;1;b")
	f.group(10000, "ACT", "11;500;800;5;100;0", "10;250;400;3;50;0")
	f.group(20000, "ACT", "11;495;810;9;300;0")
	if p := f.proc(t, 10); p.CPU != 0 || p.RSS != 400 {
		t.Errorf("omitted pid: cpu %d rss %d, want 0 and 400", p.CPU, p.RSS)
	}
	f.group(15000, "ACT", "10;1500;400;3;50;0") // more than the whole machine
	if f.t.Stats().CPUOver1000 != 1 {
		t.Errorf("cpu 1500 not flagged: %+v", f.t.Stats())
	}
	if p := f.proc(t, 11); p.CPU != 495 || !p.HasDelta || p.CtxDelta != 4 || p.IODelta != 200 || p.Interval != 10000 {
		t.Errorf("listed pid: %+v", p)
	}
	// No ACT group in the next interval (nothing used CPU, or it was lost).
	f.group(30000, "STP", "99")
	if p := f.proc(t, 11); p.CPU != 495 {
		t.Errorf("missing ACT group changed cpu to %d", p.CPU)
	}
	// An ACT group whose END is lost is used dataset by dataset only.
	f.at(40000, "ACT", "BEG")
	f.at(40000, "ACT", "10;5;401;4;60;0")
	f.at(50000, "ACT", "BEG") // aborts the open group
	if p := f.proc(t, 11); p.CPU != 495 {
		t.Errorf("aborted ACT group inferred an absence: cpu %d", p.CPU)
	}
	if p := f.proc(t, 10); p.CPU != 5 || p.CtxDelta != 1 {
		t.Errorf("aborted group's dataset not applied: %+v", p)
	}
}

// The check thread can log CHK before the NEW group that introduced a
// process, and after its STP: neither loses information.
func TestTrackerInterleaving(t *testing.T) {
	f := newFeed()
	f.at(10000, "NEW", "BEG")
	f.group(10005, "CHK", "1;/sbin/init", "20;(odd")
	f.at(10000, "NEW", "20;0;(odd", "21;20;x")
	f.at(10000, "NEW", "END")
	p := f.proc(t, 20)
	if !p.PPIDKnown || p.PPID != 0 || p.CmdKind != CmdCommCut || !p.StatShifted {
		t.Errorf("pid 20 after CHK then NEW: %+v", p)
	}
	if _, ok := f.t.Process(21); !ok {
		t.Error("pid 21 (not in the earlier CHK) dropped")
	}
	// STP in a group removes at the END; a late ACT for it is ignored.
	f.group(20000, "STP", "21")
	if _, ok := f.t.Process(21); ok {
		t.Error("pid 21 still present after STP")
	}
	f.at(15000, "ACT", "21;5;100;1;1;0") // older than the STP
	if _, ok := f.t.Process(21); ok || f.t.Stats().Stale != 1 {
		t.Errorf("late ACT resurrected pid 21 (stale %d)", f.t.Stats().Stale)
	}
	// A complete CHK group without pid 20: it is gone, its STP comes late.
	f.group(30000, "CHK", "1;/sbin/init")
	if _, ok := f.t.Process(20); ok {
		t.Error("pid 20 absent from a complete CHK group but kept")
	}
	f.group(30010, "STP", "20")
	if st := f.t.Stats(); st.InferredStops != 1 || st.LateStops != 1 || st.UnknownStop != 0 {
		t.Errorf("stats %+v", st)
	}
	// An MCNT gap makes the open CHK group incomplete: no inference.
	f.at(40000, "CHK", "BEG")
	f.src.MCNT += 3
	f.at(40000, "CHK", "30;y")
	f.at(40000, "CHK", "END")
	if _, ok := f.t.Process(1); !ok {
		t.Error("pid 1 removed by an incomplete CHK group")
	}
}

// A pid reused (a new NEW for a known pid) replaces the entry and is
// counted; a session change (dlt-kpi restarted) resets everything.
func TestTrackerReuseAndRestart(t *testing.T) {
	f := newFeed()
	f.group(10000, "NEW", "5;1;old")
	f.group(20000, "NEW", "5;1;new")
	if p := f.proc(t, 5); string(p.Cmd) != "new" || f.t.Stats().Replaced != 1 {
		t.Errorf("reuse: %q, replaced %d", p.Cmd, f.t.Stats().Replaced)
	}
	f.at(25000, "NEW", "BEG")
	f.src.SEID = 8
	f.group(30000, "NEW", "6;1;after")
	if _, ok := f.t.Process(5); ok || f.t.Len() != 1 {
		t.Errorf("table not reset on restart: %d entries", f.t.Len())
	}
	if f.r.Stats().SessionChanges != 1 || f.r.Stats().Aborted != 1 {
		t.Errorf("reassembler stats %+v", f.r.Stats())
	}
}

// IRQ rates come from consecutive good groups; a short or corrupt group
// is not applied and does not reset the per-IRQ state.
func TestTrackerIRQRates(t *testing.T) {
	rows := func(loc0, loc1 string) []string {
		return []string{"24;cpu0:1;cpu1:0;", "NMI;cpu0:0;cpu1:0;", "LOC;cpu0:" + loc0 + ";cpu1:" + loc1 + ";", "ERR;cpu0:0;"}
	}
	f := newFeed()
	f.group(10000, "IRQ", rows("1000", "2000")...)
	f.group(20000, "IRQ", "24;cpu0:-1;cpu1:0;") // the strtok race
	f.group(30000, "IRQ", rows("3000", "2500")...)
	var loc []IRQRate
	for _, r := range f.t.IRQs() {
		if r.Name == "LOC" {
			loc = append(loc, r)
		}
	}
	if len(loc) != 2 || loc[0].Delta != 2000 || loc[1].Delta != 500 || loc[0].Interval != 20000 || loc[0].PerSecond() != 1000 {
		t.Fatalf("LOC rates %+v", loc)
	}
	if f.t.Stats().SuspectIRQ != 1 {
		t.Errorf("suspect groups %d", f.t.Stats().SuspectIRQ)
	}
	// A counter that went backwards gives no delta, never a negative one.
	f.group(40000, "IRQ", rows("10", "2600")...)
	for _, r := range f.t.IRQs() {
		if r.Name == "LOC" && r.CPU == 0 && r.HasDelta {
			t.Errorf("delta across a reset: %+v", r)
		}
	}
}

// With KeepEnded, every process leaving the table is kept with when and
// why it ended: an STP in a group (at the STP's time, once the group
// ends), an STP outside any group, absence from a complete CHK group, a
// reused pid, a new session.
func TestTrackerEnded(t *testing.T) {
	f := newFeed()
	f.t = NewTracker(Options{KeepEnded: true})
	f.group(10000, "NEW", "5;1;old", "6;1;a", "7;1;b", "8;1;c")
	f.group(20000, "NEW", "5;1;new")
	f.at(21000, "STP", "BEG")
	f.at(21005, "STP", "6")
	f.at(21010, "STP", "END")
	f.at(22000, "STP", "7")
	f.group(30000, "CHK", "5;new", "9;d")
	f.at(35000, "NEW", "BEG")
	f.src.SEID = 8
	f.group(40000, "NEW", "10;1;after")
	type end struct {
		pid   int32
		cmd   string
		start uint32
		end   uint32
		by    Kind
	}
	var got []end
	for _, e := range f.t.TakeEnded() {
		got = append(got, end{e.PID, string(e.Cmd), e.FirstSeen, e.End, e.By})
	}
	want := []end{
		{5, "old", 10000, 20000, KindNEW},
		{6, "a", 10000, 21005, KindSTP},
		{7, "b", 10000, 22000, KindSTP},
		{8, "c", 10000, 30000, KindCHK},
		{5, "new", 20000, 40000, KindNone},
		{9, "d", 30000, 40000, KindNone},
	}
	if len(got) != len(want) {
		t.Fatalf("ended %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("ended[%d] %+v, want %+v", i, got[i], want[i])
		}
	}
	if len(f.t.TakeEnded()) != 0 {
		t.Error("TakeEnded returned the same processes twice")
	}
	// Off by default.
	g := newFeed()
	g.group(10000, "NEW", "5;1;old")
	g.at(22000, "STP", "5")
	if n := len(g.t.TakeEnded()); n != 0 {
		t.Errorf("%d ended without KeepEnded", n)
	}
}
