package dltkpi

import (
	"errors"
	"testing"
)

// replay pushes a capture through a reassembler and returns its events
// (datasets cloned) and stats; open is OpenGroups before Flush.
func replay(t testing.TB, name string, l Options) (evs []Event, st Stats, open int) {
	r := NewReassembler(l)
	drain := func() {
		for r.Next() {
			ev := r.Event()
			ev.Dataset = ev.Dataset.Clone()
			evs = append(evs, ev)
		}
	}
	for _, cm := range readCapture(t, name) {
		if !cm.isKPI() {
			r.Skip()
			continue
		}
		r.PushPayload(cm.source(), cm.payload, byteOrder(cm.bigEndian))
		drain()
	}
	open = r.OpenGroups()
	r.Flush()
	drain()
	return evs, r.Stats(), open
}

// TestReassemblerCaptures checks group, fragment and anomaly counts
// against the .stats.txt files, which the capture lab computed with its
// own independent Python reader.
func TestReassemblerCaptures(t *testing.T) {
	type want struct {
		messages, skipped, fragments, open, endWithoutBegin int
		groups                                              [NumKinds]int
	}
	for name, w := range map[string]want{
		// kpi-odd.stats.txt: 447 PROC messages, 13 marker datasets, groups
		// ACT 25, CHK 26, IRQ 26, NEW 26, STP 25, none open at the end.
		"kpi-odd": {messages: 447, skipped: 5, fragments: 13, groups: [NumKinds]int{KindNEW: 26, KindSTP: 25, KindACT: 25, KindCHK: 26, KindIRQ: 26}},
		// kpi-huge-argv0.stats.txt: 209 fragments, CHK and NEW still open.
		"kpi-huge-argv0": {messages: 245, skipped: 5, fragments: 209, open: 2, groups: [NumKinds]int{KindNEW: 2, KindSTP: 1, KindACT: 1, KindCHK: 2, KindIRQ: 3}},
		// excerpt-irq-strtok-race.stats.txt: NEW open, one CHK END without BEG.
		"excerpt-irq-strtok-race": {messages: 34, open: 1, endWithoutBegin: 1, groups: [NumKinds]int{KindNEW: 2, KindSTP: 1, KindACT: 2, KindCHK: 2, KindIRQ: 3}},
	} {
		evs, st, open := replay(t, name, Options{})
		if st.Messages != w.messages || st.Skipped != w.skipped || st.Fragments != w.fragments ||
			open != w.open || st.EndWithoutBegin != w.endWithoutBegin || st.Groups != w.groups {
			t.Errorf("%s: stats %+v open %d, want %+v", name, st, open, w)
		}
		if st.Invalid != 0 || st.McntGaps != 0 || st.SessionChanges != 0 {
			t.Errorf("%s: unexpected anomalies %+v", name, st)
		}
		if st.Unterminated != w.open {
			t.Errorf("%s: %d unterminated at Flush, want %d", name, st.Unterminated, w.open)
		}
		// Every fragment of kpi-odd is followed by its whole dataset; in
		// kpi-huge-argv0 the NEW and CHK floods were still re-sending when
		// the capture was cut (its last NEW and last CHK message end in a
		// fragment), so exactly those two never see their dataset.
		wantLost := map[string]int{"kpi-huge-argv0": 2}[name]
		if st.FragmentsLost != wantLost || st.FragmentsRepeated+st.FragmentsLost != w.fragments {
			t.Errorf("%s: fragments repeated %d, lost %d; want lost %d", name, st.FragmentsRepeated, st.FragmentsLost, wantLost)
		}
		frag := 0
		for _, ev := range evs {
			if ev.Type == EventFragment {
				frag++
			}
			if ev.Type == EventDataset && ev.Dataset.Truncated {
				t.Errorf("%s: fragment delivered as a dataset", name)
			}
		}
		if frag != w.fragments {
			t.Errorf("%s: %d fragment events, want %d", name, frag, w.fragments)
		}
	}
}

// TestReassemblerFlood: kpi-huge-argv0's NEW group never ends; its run of
// fragment-only messages flags it as flooded and, with a byte limit, it is
// aborted instead of growing.
func TestReassemblerFlood(t *testing.T) {
	evs, st, _ := replay(t, "kpi-huge-argv0", Options{})
	var flooded bool
	for _, ev := range evs {
		if ev.Type == EventGroupAborted && ev.Kind == KindNEW {
			flooded = flooded || ev.Group.Flooded
		}
	}
	if !flooded || st.FragmentOnly < 100 {
		t.Errorf("flood not detected: flooded %v, fragment-only %d", flooded, st.FragmentOnly)
	}
	_, st, _ = replay(t, "kpi-huge-argv0", Options{MaxGroupDatasets: 10})
	if st.Aborted == 0 || st.Orphans == 0 {
		t.Errorf("MaxGroupDatasets 10: aborted %d, orphans %d", st.Aborted, st.Orphans)
	}
}

// TestReassemblerRejectKeepsCounter: a message of the KPI context that
// does not parse is reported, and the next one is not a counter gap.
func TestReassemblerRejectKeepsCounter(t *testing.T) {
	r := NewReassembler(Options{})
	src := Source{SEID: 3, MCNT: 10}
	r.PushPayload(src, payload("NEW", "BEG"), nil)
	src.MCNT++
	r.PushPayload(src, payload("XYZ", "1"), nil)
	var kinds []EventType
	for r.Next() {
		kinds = append(kinds, r.Event().Type)
		if !errors.Is(r.Event().Err, ErrType) {
			t.Errorf("invalid event error %v", r.Event().Err)
		}
	}
	src.MCNT++
	r.PushPayload(src, payload("NEW", "1;0;init"), nil)
	src.MCNT++
	r.PushPayload(src, payload("NEW", "END"), nil)
	var end Event
	for r.Next() {
		end = r.Event()
	}
	st := r.Stats()
	if len(kinds) != 1 || kinds[0] != EventInvalid || st.Invalid != 1 || st.McntGaps != 0 || !end.Group.Complete {
		t.Errorf("events %v, stats %+v, end %+v", kinds, st, end)
	}
}
