package dltkpi

import (
	"os"
	"reflect"
	"testing"

	"github.com/perfwire/perfwire/dlt"
)

// TestSessionIsThePipeline: a Session over each capture, whole and cut
// inside a group, leaves the tracker, the counters and the open-group
// count that the Reassembler and Tracker wired by hand leave, and yields
// every event, each already applied (by Event and by Current alike).
func TestSessionIsThePipeline(t *testing.T) {
	for _, name := range []string{"kpi-odd", "excerpt-irq-strtok-race", "kpi-huge-argv0"} {
		data, err := os.ReadFile("testdata/" + name + ".dlt")
		if err != nil {
			t.Fatal(err)
		}
		for _, cut := range []int{len(data), len(data) * 2 / 3} {
			// By hand.
			r, tr := NewReassembler(Options{}), NewTracker(Options{KeepEnded: true})
			var want []Event
			apply := func() {
				for r.Next() {
					tr.Apply(r.Event())
					want = append(want, r.Event())
				}
			}
			s := dlt.NewScanner(data[:cut], dlt.Options{})
			for s.Next() {
				r.PushDLT(Selector{}, s.Message())
				apply()
			}
			open := r.OpenGroups()
			r.Flush()
			apply()

			ses := NewSession(Options{KeepEnded: true})
			var got []Event
			take := func() {
				for ses.Next() {
					// Current is Event without the copy.
					if ev := ses.Current(); !reflect.DeepEqual(*ev, ses.Event()) {
						t.Fatalf("%s: Current %+v, Event %+v", name, *ev, ses.Event())
					}
					got = append(got, ses.Event())
				}
			}
			s = dlt.NewScanner(data[:cut], dlt.Options{})
			for s.Next() {
				ses.Push(s.Message())
				take()
			}
			if ses.OpenGroups() != open {
				t.Errorf("%s cut at %d: %d open groups before End, by hand %d", name, cut, ses.OpenGroups(), open)
			}
			ses.End()
			take()
			if len(got) != len(want) || len(got) < 100 {
				t.Fatalf("%s cut at %d: %d events, by hand %d", name, cut, len(got), len(want))
			}
			if ses.OpenGroups() != open || ses.Stats() != r.Stats() || ses.Tracker().Stats() != tr.Stats() ||
				!reflect.DeepEqual(ses.Tracker().Processes(), tr.Processes()) || !reflect.DeepEqual(ses.Tracker().TakeEnded(), tr.TakeEnded()) {
				t.Errorf("%s cut at %d: the session's state differs from the pipeline's by hand", name, cut)
			}
			if cut < len(data) && open == 0 {
				t.Errorf("%s cut at %d: no group left open", name, cut)
			}
		}
	}
}
