package archive

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/randfill"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// content is what one randomly filled archive holds.
type content struct {
	Metrics []Metric
	InDoms  []Instances
	Labels  []LabelSets
	Texts   []Text
	Results []pduwire.ResultPDU
}

// normalize brings randomly filled content into what the format can
// carry and a reader gives back as it was written: distinct metrics with
// distinct NUL-free names, instance domains with distinct non-negative
// instances in order, label indexes inside their JSON, texts without NUL,
// value blocks of strings and aggregates, times that do not go back.
func (c *content) normalize(v int) {
	seenID := map[pcp.ID]bool{}
	seenName := map[string]bool{}
	ms := c.Metrics[:0]
	for _, m := range c.Metrics {
		if seenID[m.ID] {
			continue
		}
		seenID[m.ID] = true
		names := m.Names[:0]
		for _, n := range m.Names {
			n = strings.ReplaceAll(n, "\x00", "")
			if !seenName[n] {
				seenName[n] = true
				names = append(names, n)
			}
		}
		m.Names = names
		if len(names) == 0 {
			m.Names = nil // as a reader gives a descriptor without names
		}
		ms = append(ms, m)
	}
	c.Metrics = ms
	if len(c.Metrics) == 0 {
		c.Metrics = []Metric{{Desc: pcp.Desc{ID: 1}}}
	}
	for i := range c.InDoms {
		in := &c.InDoms[i]
		in.Delta = false
		in.Time = Timestamp{Sec: int64(i), Nsec: 0}
		in.InDom = pcp.InDom(i)
		in.Inst = in.Inst[:0]
		for j := range in.Names {
			in.Names[j] = strings.ReplaceAll(in.Names[j], "\x00", "")
			in.Inst = append(in.Inst, int32(j*3))
		}
	}
	for i := range c.Labels {
		ls := &c.Labels[i]
		ls.Time = Timestamp{Sec: int64(i), Nsec: int32(i) * 1000}
		for j := range ls.Sets {
			s := &ls.Sets[j]
			if len(s.JSON) > 200 {
				s.JSON = s.JSON[:200]
			}
			if len(s.Labels) > 4 {
				s.Labels = s.Labels[:4]
			}
			for k := range s.Labels {
				l := &s.Labels[k]
				l.Name, l.NameLen = 0, uint8(min(len(s.JSON), 255))
				l.Value, l.ValueLen = 0, uint16(len(s.JSON))
			}
			s.NLabels = int32(len(s.Labels))
			if s.NLabels == 0 {
				s.Labels = nil
			}
		}
		if len(ls.Sets) == 0 {
			ls.Sets = []pduwire.LabelSet{}
		}
	}
	for i := range c.Texts {
		c.Texts[i].Text = strings.ReplaceAll(c.Texts[i].Text, "\x00", "")
	}
	for i := range c.Results {
		r := &c.Results[i]
		r.HighRes, r.Sec, r.Nsec = false, 0, 0
		for k := range r.Sets {
			vs := &r.Sets[k]
			if len(vs.Values) == 0 {
				vs.NumVal, vs.ValFmt, vs.Values = min(vs.NumVal, 0), 0, nil
				continue
			}
			vs.NumVal, vs.ValFmt = int32(len(vs.Values)), vs.ValFmt%2
			for j := range vs.Values {
				x := &vs.Values[j]
				if vs.ValFmt == pduwire.ValInsitu {
					x.BlockType, x.Payload = 0, nil
					continue
				}
				x.Word = 0
				x.BlockType = []pcp.Type{pcp.TypeString, pcp.TypeAggregate}[uint8(x.BlockType)%2]
				if x.Payload == nil {
					x.Payload = []byte{}
				}
			}
		}
		if r.Sets == nil {
			r.Sets = []pduwire.ValueSetData{}
		}
	}
}

// FuzzRoundTrip writes randomly filled metadata and records through the
// encoders, in both versions, and reads the same things back.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("seed"))
	f.Add(bytes.Repeat([]byte{0xa5, 0x01, 0x7f}, 64))
	f.Add(bytes.Repeat([]byte{3}, 300))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, v := range []int{2, 3} {
			var c content
			randfill.NewFromGoFuzz(data).NilChance(0).NumElements(0, 5).Fill(&c)
			c.normalize(v)
			var meta, index, vol bytes.Buffer
			w, err := NewWriter(Label{Version: v, Hostname: "fuzz", TZ: "UTC"}, &meta, &index, &vol)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range c.Metrics {
				w.Metric(m)
			}
			for _, in := range c.InDoms {
				w.InDom(in)
			}
			for _, ls := range c.Labels {
				w.Labels(ls)
			}
			for _, tx := range c.Texts {
				w.Text(tx)
			}
			for i := range c.Results {
				if err := w.Result(Timestamp{Sec: int64(i)}, &c.Results[i]); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Finish(); err != nil {
				t.Fatal(err)
			}
			a, err := files{meta: meta.Bytes(), index: index.Bytes(), vols: [][]byte{vol.Bytes()}}.open(Options{})
			if err != nil {
				t.Fatalf("v%d: %v", v, err)
			}
			if !reflect.DeepEqual(a.Meta.Metrics, c.Metrics) || !slices.Equal(a.Meta.Texts, c.Texts) {
				t.Fatalf("v%d: metrics or texts differ:\n%+v\n%+v", v, a.Meta.Metrics, c.Metrics)
			}
			if len(a.Meta.InDoms) != len(c.InDoms) || len(a.Meta.Labels) != len(c.Labels) {
				t.Fatalf("v%d: %d instance domains and %d label records, wrote %d and %d", v,
					len(a.Meta.InDoms), len(a.Meta.Labels), len(c.InDoms), len(c.Labels))
			}
			for i := range c.InDoms {
				if g := a.Meta.InDoms[i]; !g.same(&c.InDoms[i]) || g.Time != c.InDoms[i].Time {
					t.Fatalf("v%d: instance domain %d: %+v, wrote %+v", v, i, g, c.InDoms[i])
				}
			}
			if len(c.Labels) > 0 && !reflect.DeepEqual(a.Meta.Labels, c.Labels) {
				t.Fatalf("v%d: labels differ:\n%+v\n%+v", v, a.Meta.Labels, c.Labels)
			}
			_, rs := records(t, a)
			if len(rs) != len(c.Results) {
				t.Fatalf("v%d: %d records, wrote %d", v, len(rs), len(c.Results))
			}
			for i := range rs {
				if !reflect.DeepEqual(rs[i], c.Results[i]) {
					t.Fatalf("v%d: record %d:\n%+v\nwrote\n%+v", v, i, rs[i], c.Results[i])
				}
			}
		}
	})
}
