package archive

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/perfwire/perfwire/pduwire"
)

// rewrite copies archive a into a new one of version v through Writer,
// as pmlogger would have written it: metadata first as of each record's
// time, then the record; a new volume where a had one.
func rewrite(t testing.TB, a *Archive, v int) files {
	t.Helper()
	var meta, index bytes.Buffer
	vols := []*bytes.Buffer{{}}
	l := a.Label
	l.Version = v
	w, err := NewWriter(l, &meta, &index, vols[0])
	if err != nil {
		t.Fatal(err)
	}
	m := a.Meta
	for _, d := range m.Metrics {
		w.Metric(d)
	}
	for _, tx := range m.Texts {
		w.Text(tx)
	}
	for _, ls := range m.Labels {
		w.Labels(ls)
	}
	next := 0 // the next instance domain record to write
	s := a.NewScanner()
	var rd pduwire.ResultPDU
	for s.Next() {
		r := s.Record()
		for next < len(m.InDoms) && !r.Time.Before(m.InDoms[next].Time) {
			w.InDom(m.InDoms[next])
			next++
		}
		if r.Vol != w.Volume() {
			vols = append(vols, &bytes.Buffer{})
			w.NewVolume(vols[len(vols)-1])
		}
		r.Result.AppendTo(&rd)
		if err := w.Result(r.Time, &rd); err != nil {
			t.Fatal(err)
		}
	}
	for ; next < len(m.InDoms); next++ {
		w.InDom(m.InDoms[next])
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	out := files{meta: meta.Bytes(), index: index.Bytes()}
	for _, b := range vols {
		out.vols = append(out.vols, b.Bytes())
	}
	return out
}

// records reads every record of a as an owned ResultPDU with its time.
func records(t testing.TB, a *Archive) ([]Timestamp, []pduwire.ResultPDU) {
	var ts []Timestamp
	var rs []pduwire.ResultPDU
	s := a.NewScanner()
	for s.Next() {
		var rd pduwire.ResultPDU
		s.Record().Result.AppendTo(&rd)
		for i := range rd.Sets {
			for j := range rd.Sets[i].Values {
				rd.Sets[i].Values[j].Payload = bytes.Clone(rd.Sets[i].Values[j].Payload)
			}
		}
		rd.Sec, rd.Nsec, rd.HighRes = 0, 0, false
		if rd.Sets == nil {
			rd.Sets = []pduwire.ValueSetData{}
		}
		for i := range rd.Sets {
			if len(rd.Sets[i].Values) == 0 {
				rd.Sets[i].Values = nil
			}
		}
		ts = append(ts, s.Record().Time)
		rs = append(rs, rd)
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return ts, rs
}

// Real archives written again by Writer, in both versions, read back to
// the same metadata and the same records (times at the precision of the
// version written).
func TestWriterRoundTrip(t *testing.T) {
	for _, base := range []string{"m2", "m3"} {
		orig, err := load(t, base).open(Options{})
		if err != nil {
			t.Fatal(err)
		}
		ots, ors := records(t, orig)
		for _, v := range []int{2, 3} {
			f := rewrite(t, orig, v)
			a, err := f.open(Options{})
			if err != nil {
				t.Fatalf("%s as v%d: %v", base, v, err)
			}
			if a.Label.Version != v || a.Label.Hostname != orig.Label.Hostname || a.Label.PID != orig.Label.PID {
				t.Errorf("%s as v%d: label %+v", base, v, a.Label)
			}
			if len(f.vols) != len(load(t, base).vols) {
				t.Errorf("%s as v%d: %d volumes", base, v, len(f.vols))
			}
			if !reflect.DeepEqual(a.Meta.Metrics, orig.Meta.Metrics) || !reflect.DeepEqual(a.Meta.Texts, orig.Meta.Texts) {
				t.Errorf("%s as v%d: descriptors or help texts differ", base, v)
			}
			if len(a.Meta.InDoms) != len(orig.Meta.InDoms) || len(a.Meta.Labels) != len(orig.Meta.Labels) {
				t.Errorf("%s as v%d: %d instance domain and %d label records, want %d and %d", base, v,
					len(a.Meta.InDoms), len(a.Meta.Labels), len(orig.Meta.InDoms), len(orig.Meta.Labels))
			}
			for i := range a.Meta.InDoms {
				g, o := a.Meta.InDoms[i], orig.Meta.InDoms[i]
				if !g.same(&o) || g.InDom != o.InDom {
					t.Errorf("%s as v%d: instance domain record %d differs", base, v, i)
				}
			}
			ts, rs := records(t, a)
			if len(ts) != len(ots) {
				t.Fatalf("%s as v%d: %d records, want %d", base, v, len(ts), len(ots))
			}
			for i := range ts {
				want := ots[i]
				if v == 2 {
					want.Nsec -= want.Nsec % 1000
				}
				if ts[i] != want || !reflect.DeepEqual(rs[i], ors[i]) {
					t.Errorf("%s as v%d: record %d differs", base, v, i)
				}
			}
			idx, err := a.Index()
			if err != nil || len(idx) < 3 {
				t.Errorf("%s as v%d: index %d entries, %v", base, v, len(idx), err)
			}
		}
	}
}

// Written in their own version, pmlogger's archives come out byte for byte
// as pmlogger wrote their data volumes, but for the pad bytes after value
// blocks, which pmlogger leaves as they were in its buffer and Writer
// zeroes.
func TestWriterBytes(t *testing.T) {
	for _, base := range []string{"m2", "m3"} {
		src := load(t, base)
		a, err := src.open(Options{})
		if err != nil {
			t.Fatal(err)
		}
		f := rewrite(t, a, a.Label.Version)
		b, _ := f.open(Options{})
		pad := map[[2]int]bool{} // volume, offset
		s := b.NewScanner()
		for s.Next() {
			r := s.Record()
			vs := r.Result.Scan()
			for vs.Next() {
				v := vs.ValueSet()
				for j := range v.Len() {
					if x := v.Value(j); x.Block() {
						start := int(r.Offset) - 8 + 4*int(x.Word)
						for p := start + 4 + len(x.Payload()); p%4 != 0; p++ {
							pad[[2]int{r.Vol, p}] = true
						}
					}
				}
			}
		}
		for i := range src.vols {
			if len(f.vols[i]) != len(src.vols[i]) {
				t.Fatalf("%s volume %d: %d bytes, pmlogger's %d", base, i, len(f.vols[i]), len(src.vols[i]))
			}
			for p := range src.vols[i] {
				if f.vols[i][p] != src.vols[i][p] && !(pad[[2]int{i, p}] && f.vols[i][p] == 0) {
					t.Fatalf("%s volume %d: byte %d is %#x, pmlogger's %#x", base, i, p, f.vols[i][p], src.vols[i][p])
				}
			}
		}
		if len(pad) == 0 {
			t.Errorf("%s: no padding found: the test checks nothing", base)
		}
	}
}

// After Finish every call fails with the ErrWriterDone kind, in a
// *ParseError whose offset is the end of the volume written.
func TestWriterDone(t *testing.T) {
	var meta, vol bytes.Buffer
	w, err := NewWriter(Label{Version: 3, Hostname: "h", TZ: "UTC"}, &meta, nil, &vol)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	n := vol.Len()
	for name, err := range map[string]error{
		"Mark":   w.Mark(Timestamp{Sec: 1}),
		"Finish": w.Finish(),
	} {
		pe, ok := errors.AsType[*ParseError](err)
		if !errors.Is(err, ErrWriterDone) || !ok || pe.Offset != int64(n) {
			t.Errorf("%s after Finish: %v, want ErrWriterDone at offset %d", name, err, n)
		}
	}
	if vol.Len() != n {
		t.Errorf("volume grew after Finish: %d bytes, was %d", vol.Len(), n)
	}
}
