package dltkpi

import (
	"bytes"
	"testing"
)

// TestSnapshotsCaptures: the snapshots of kpi-odd are exactly its
// BEG…END groups, with the datasets in the order dlt-kpi logged them
// (NEW and CHK ascending pids, STP and ACT descending) and intact after
// the payloads they came from are gone.
func TestSnapshotsCaptures(t *testing.T) {
	r := NewReassembler(Options{})
	var c Snapshots
	var got [NumKinds]int
	var cmds [][]byte
	for _, cm := range readCapture(t, "kpi-odd") {
		if !cm.isKPI() {
			continue
		}
		r.PushPayload(cm.source(), bytes.Clone(cm.payload), nil)
		for r.Next() {
			snap, ok := c.Apply(r.Event())
			if !ok {
				continue
			}
			k := snap.Group.Kind
			got[k]++
			if len(snap.Datasets) != snap.Group.Datasets {
				t.Errorf("%v snapshot: %d datasets, group counted %d", k, len(snap.Datasets), snap.Group.Datasets)
			}
			for i := 1; i < len(snap.Datasets); i++ {
				a, b := snap.Datasets[i-1].PID, snap.Datasets[i].PID
				if (k == KindNEW || k == KindCHK) && a >= b || (k == KindSTP || k == KindACT) && a <= b {
					t.Errorf("%v snapshot out of order: %d then %d", k, a, b)
				}
			}
			if k == KindCHK {
				for _, d := range snap.Datasets {
					if d2, err := ParseDataset(KindCHK, d.Raw); err != nil || !bytes.Equal(d2.Cmd, d.Cmd) {
						t.Fatalf("snapshot view broken: %q vs %q", d.Cmd, d.Raw)
					}
				}
				if len(cmds) == 0 {
					for _, d := range snap.Datasets {
						cmds = append(cmds, bytes.Clone(d.Raw))
					}
				}
			}
		}
	}
	want := [NumKinds]int{KindNEW: 26, KindSTP: 25, KindACT: 25, KindCHK: 26, KindIRQ: 26}
	if got != want {
		t.Errorf("snapshots %v, want %v (kpi-odd.stats.txt)", got, want)
	}
	if len(cmds) < 90 || string(cmds[0]) != "1;/usr/bin/app" {
		t.Errorf("first CHK snapshot: %d datasets, first %q", len(cmds), cmds[0])
	}
}
