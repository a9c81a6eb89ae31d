package parquet

import (
	"encoding/json"
	"sort"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/labels"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// labelIndex gives the merged labels of a value as of a time: the label
// sets of the context, the metric's domain, instance domain, cluster and
// item, and its instance, each the latest .meta record at or before the
// time, merged in that order of precedence as pmLookupLabels and
// pmMergeLabelSets do.
type labelIndex struct {
	meta  *archive.Meta
	times []int64            // each label record's time, sorted
	recs  map[labelKey][]int // indices into meta.Labels, in time order
	sets  map[int][]*labels.Set
	cache map[seriesKey]*merged

	scratch labels.Set
	in      []*labels.Set
}

type labelKey struct{ typ, ident uint32 }

// merged is a series' merged labels, computed at epoch.
type merged struct {
	epoch int
	json  string
	m     map[string]string
}

func newLabelIndex(m *archive.Meta) *labelIndex {
	x := &labelIndex{meta: m, recs: map[labelKey][]int{}, sets: map[int][]*labels.Set{}, cache: map[seriesKey]*merged{}}
	for i := range m.Labels {
		l := &m.Labels[i]
		x.times = append(x.times, stampNS(l.Time))
		k := labelKey{l.Type, l.Ident}
		x.recs[k] = append(x.recs[k], i)
	}
	sort.Slice(x.times, func(i, j int) bool { return x.times[i] < x.times[j] })
	return x
}

// epoch numbers the label records at or before t: the merged labels of a
// series change only when it does.
func (x *labelIndex) epoch(t archive.Timestamp) int {
	ns := stampNS(t)
	return sort.Search(len(x.times), func(i int) bool { return x.times[i] > ns })
}

// at returns the latest record of k at or before ns (or the first) and its sets parsed
// (nil where a set has no labels).
func (x *labelIndex) at(k labelKey, ns int64) (*archive.LabelSets, []*labels.Set) {
	ix := x.recs[k]
	n := sort.Search(len(ix), func(i int) bool { return stampNS(x.meta.Labels[ix[i]].Time) > ns })
	if len(ix) == 0 {
		return nil, nil
	}
	if n == 0 {
		// Before the first record, the first: pmlogger writes the label
		// sets just after the values of the same moment, as it does the
		// instance domains (archive.Meta.InDomAt).
		n = 1
	}
	i := ix[n-1]
	rec := &x.meta.Labels[i]
	if s, ok := x.sets[i]; ok {
		return rec, s
	}
	sets := make([]*labels.Set, len(rec.Sets))
	for j, ls := range rec.Sets {
		if ls.NLabels <= 0 {
			continue
		}
		s := new(labels.Set)
		if labels.Parse(s, ls.JSON, labels.Options{Dotted: true, Limits: labels.Limits{MaxLabels: labels.MaxLabelsArchive}}) != nil {
			continue // a set libpcp would not parse either: no labels from it
		}
		sets[j] = s
	}
	x.sets[i] = sets
	return rec, sets
}

// one is the first set of a record, for the levels that have one.
func (x *labelIndex) one(typ, ident uint32, ns int64) *labels.Set {
	if _, s := x.at(labelKey{typ, ident}, ns); len(s) > 0 {
		return s[0]
	}
	return nil
}

// merged returns the merged labels of metric m's instance inst (pcp.InNull
// for a singular metric) as of epoch, as JSON and as a map of each label
// to its value (a string's text unquoted, other values' JSON text).
func (x *labelIndex) merged(m *archive.Metric, inst int32, epoch int) (string, map[string]string) {
	k := seriesKey{m.ID, inst}
	c := x.cache[k]
	if c != nil && c.epoch == epoch {
		return c.json, c.m
	}
	var ns int64 = -1 << 63
	if epoch > 0 {
		ns = x.times[epoch-1]
	}
	id := uint32(m.ID)
	x.in = append(x.in[:0],
		x.one(pduwire.LabelContext, uint32(pcp.IDNull), ns),
		x.one(pduwire.LabelDomain, m.ID.Domain(), ns))
	if m.InDom != pcp.InDomNull {
		x.in = append(x.in, x.one(pduwire.LabelInDom, uint32(m.InDom), ns))
	}
	x.in = append(x.in, x.one(pduwire.LabelCluster, id&^0x3ff, ns), x.one(pduwire.LabelItem, id, ns))
	if m.InDom != pcp.InDomNull {
		if rec, sets := x.at(labelKey{pduwire.LabelInstances, uint32(m.InDom)}, ns); rec != nil {
			for j, ls := range rec.Sets {
				if ls.Inst == inst {
					x.in = append(x.in, sets[j])
					break
				}
			}
		}
	}
	c = &merged{epoch: epoch, json: "{}", m: map[string]string{}}
	if labels.Merge(&x.scratch, x.in, nil) == nil && x.scratch.Len() > 0 {
		c.json = string(x.scratch.JSON)
		for p := range x.scratch.All() {
			c.m[string(p.Name)] = labelValue(p.Value)
		}
	}
	x.cache[k] = c
	return c.json, c.m
}

// labelValue is a label's value for the map column: a JSON string's text,
// any other value's JSON text as it stands.
func labelValue(v []byte) string {
	if len(v) > 0 && v[0] == '"' {
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s
		}
	}
	return string(v)
}
