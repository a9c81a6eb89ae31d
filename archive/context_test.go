package archive

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/perfwire/perfwire/pcp"
)

// Forward and Backward read the records holding a metric, in order and in
// reverse, with only that metric's value set; both end with ErrEOL.
func TestContextForwardBackward(t *testing.T) {
	a, err := load(t, "m3").open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := a.Meta.Lookup("sample.many.int")
	var want []Timestamp
	s := a.NewScanner()
	for s.Next() {
		for vs := range s.Record().Result.ValueSets() {
			if vs.PMID == m.ID {
				want = append(want, s.Record().Time)
			}
		}
	}
	c := a.NewContext()
	for _, mode := range []Mode{Forward, Backward} {
		origin := a.Label.Start
		if mode == Backward {
			origin, _ = a.End()
		}
		c.SetMode(mode, origin, 0)
		var got []Timestamp
		for {
			r, err := c.Fetch(context.Background(), m.ID)
			if errors.Is(err, ErrEOL) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.NumPMID != 1 {
				t.Fatalf("mode %d: %d value sets", mode, r.NumPMID)
			}
			got = append(got, Timestamp{Sec: r.Sec, Nsec: int32(r.Nsec)})
		}
		if len(got) != len(want) || len(got) < 20 {
			t.Fatalf("mode %d: %d records, want %d", mode, len(got), len(want))
		}
		for i := range got {
			w := want[i]
			if mode == Backward {
				w = want[len(want)-1-i]
			}
			if got[i] != w {
				t.Errorf("mode %d record %d: %v, want %v", mode, i, got[i], w)
			}
		}
	}
}

// Interp: a metric not in the archive is PM_ERR_PMID_LOG in its value
// set; past the end is ErrEOL; the time moves by the step.
func TestContextInterp(t *testing.T) {
	a, err := load(t, "m3").open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := a.NewContext()
	c.SetMode(Interp, a.Label.Start, 100*time.Millisecond)
	m, _ := a.Meta.Lookup("sample.long.one")
	for i := 0; ; i++ {
		r, err := c.Fetch(context.Background(), m.ID, pcp.ID(12345))
		if errors.Is(err, ErrEOL) {
			if i < 10 {
				t.Errorf("ErrEOL after %d steps", i)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		want := a.Label.Start.Time().Add(time.Duration(i) * 100 * time.Millisecond)
		if got := time.Unix(r.Sec, r.Nsec); !got.Equal(want) {
			t.Fatalf("step %d at %v, want %v", i, got, want)
		}
		sets := r.Scan()
		sets.Next()
		sets.Next()
		if vs := sets.ValueSet(); vs.NumVal != int32(pcp.ErrPMIDLog) {
			t.Errorf("unknown metric: numval %d", vs.NumVal)
		}
	}
}

// The Source methods answer from the metadata as of the current time:
// sample.many.int's domain had 5, then 3, then 7 instances.
func TestContextSource(t *testing.T) {
	a, err := load(t, "m3").open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c := a.NewContext()
	if _, err := c.LookupName(ctx, "no.such.metric"); !errors.Is(err, pcp.ErrName) {
		t.Errorf("unknown name: %v", err)
	}
	ids, err := c.LookupName(ctx, "sample.many.int")
	if err != nil {
		t.Fatal(err)
	}
	d, _ := c.LookupDesc(ctx, ids[0])
	var sizes []int
	for _, in := range a.Meta.InDomHistory(d.InDom) {
		c.SetMode(Interp, in.Time, time.Second)
		insts, err := c.GetInDom(ctx, d.InDom)
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, len(insts))
	}
	if len(sizes) != 3 || sizes[0] != 5 || sizes[1] != 3 || sizes[2] != 7 {
		t.Errorf("instances as of each change: %v, want [5 3 7]", sizes)
	}
	if one, err := c.LookupText(ctx, ids[0], false); err != nil || one == "" {
		t.Errorf("one-line help: %q %v", one, err)
	}
	sets, err := c.LookupLabelSets(ctx, 1, uint32(pcp.IDNull)) // the context's labels
	if err != nil || len(sets) != 1 || !strings.Contains(string(sets[0].JSON), `"hostname":"vm"`) {
		t.Errorf("context labels: %v %v", sets, err)
	}
}
