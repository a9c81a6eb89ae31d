package pmapi

import (
	"context"

	"github.com/perfwire/perfwire/labels"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// LabelSet is one label set as pmcd sent it: the instance it belongs to
// (pcp.InNull except for instance labels) and its JSON text.
type LabelSet struct {
	Inst int32
	JSON string
}

// LookupLabels returns the label sets at one level of the hierarchy
// (pmGetContextLabels, pmGetDomainLabels, pmGetInDomLabels,
// pmGetClusterLabels, pmGetItemLabels, pmGetInstancesLabels): kind is one of
// the pduwire.Label* constants and ident the pmID, pmInDom or domain it
// applies to (pcp.IDNull for the context).
func (c *Client) LookupLabels(ctx context.Context, kind int32, ident uint32) ([]LabelSet, error) {
	sets, err := c.LookupLabelSets(ctx, kind, ident)
	if err != nil {
		return nil, err
	}
	out := make([]LabelSet, 0, len(sets))
	for _, s := range sets {
		out = append(out, LabelSet{Inst: s.Inst, JSON: string(s.JSON)})
	}
	return out, nil
}

// LookupLabelSets is LookupLabels with each set's label index (name and
// value offsets and flags) as pmcd sent it, for writers of archives.
func (c *Client) LookupLabelSets(ctx context.Context, kind int32, ident uint32) ([]pduwire.LabelSet, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.features.Labels() {
		return nil, &ServerError{Op: "lookup labels", Code: -12413} // PM_ERR_FEATURE
	}
	req := pduwire.LabelReqPDU{Ident: ident, Kind: kind}
	c.out = req.Append(c.out[:0], 0)
	p, err := c.exchange(ctx, "lookup labels", pduwire.TypeLabel)
	if err != nil {
		return nil, err
	}
	var m pduwire.LabelPDU
	if err := c.decode("lookup labels", p, &m); err != nil {
		return nil, err
	}
	out := make([]pduwire.LabelSet, 0, len(m.Sets))
	for _, s := range m.Sets {
		if s.NLabels < 0 {
			return nil, &ServerError{Op: "lookup labels", Code: pcp.Code(s.NLabels)}
		}
		s.JSON = append([]byte(nil), s.JSON...)
		s.Labels = append([]pduwire.LabelEntry(nil), s.Labels...)
		out = append(out, s)
	}
	return out, nil
}

// MetricLabels are the labels of one metric merged down the hierarchy,
// as pminfo -l shows them.
type MetricLabels struct {
	// Metric merges the context, domain, instance-domain, cluster and item
	// sets, later levels winning.
	Metric labels.Set
	// Instances holds, for a metric with an instance domain, the
	// instances that have labels of their own, merged over Metric. Use
	// ForInstance for any instance.
	Instances map[int32]labels.Set
}

// ForInstance returns the labels of one instance: its own merged set, or
// the metric's labels when pmcd sent none for it (as pminfo -l shows them).
func (m *MetricLabels) ForInstance(inst int32) *labels.Set {
	if s, ok := m.Instances[inst]; ok {
		return &s
	}
	return &m.Metric
}

// mmvDomain is the mmv PMDA's domain number (PCP's stdpmid).
const mmvDomain = 70

// MetricLabels fetches every level of labels that applies to the metric
// described by d and merges them (pmLookupLabels + pmMergeLabelSets).
// PMDAs may send sets with nested maps in libpcp's single-parse form; they
// are flattened to dotted names, as a merge in libpcp does.
func (c *Client) MetricLabels(ctx context.Context, d pcp.Desc) (*MetricLabels, error) {
	type level struct {
		flags labels.Flags
		ident uint32
	}
	levels := []level{{labels.Context, uint32(pcp.IDNull)}, {labels.Domain, d.ID.Domain()}}
	if d.InDom != pcp.InDomNull {
		levels = append(levels, level{labels.InDom, uint32(d.InDom)})
	}
	levels = append(levels, level{labels.Cluster, uint32(d.ID)}, level{labels.Item, uint32(d.ID)})
	sets := make([]*labels.Set, 0, len(levels)+1)
	for _, l := range levels {
		got, err := c.LookupLabels(ctx, int32(l.flags), l.ident)
		if err != nil {
			return nil, err
		}
		if len(got) > 0 {
			s, err := parseLabels(got[0].JSON, l.flags)
			if err != nil {
				return nil, err
			}
			sets = append(sets, s)
		}
	}
	out := &MetricLabels{}
	if err := labels.Merge(&out.Metric, sets, nil); err != nil {
		return nil, err
	}
	if d.InDom == pcp.InDomNull {
		return out, nil
	}
	// An MMV metric is fetched first, as pminfo -l fetches before it asks
	// for labels: pmcd 6.0.3's mmv PMDA, which runs inside pmcd, crashes
	// it on a request for an MMV instance domain's instance labels that no
	// fetch of the metric preceded. Other PMDAs are not fetched: a fetch
	// can change what they hold (sample.scramble reorders its instances).
	// The fetch's own failure is not this call's.
	if d.ID.Domain() == mmvDomain {
		if _, err := c.Fetch(ctx, d.ID); err != nil && ctx.Err() != nil {
			return nil, err
		}
	}
	got, err := c.LookupLabels(ctx, int32(labels.Instances), uint32(d.InDom))
	if err != nil {
		return nil, err
	}
	out.Instances = make(map[int32]labels.Set, len(got))
	for _, g := range got {
		s, err := parseLabels(g.JSON, labels.Instances)
		if err != nil {
			return nil, err
		}
		var merged labels.Set
		if err := labels.Merge(&merged, append(sets, s), nil); err != nil {
			return nil, err
		}
		out.Instances[g.Inst] = merged
	}
	return out, nil
}

// parseLabels reads one set as pmcd sent it; a level without labels
// comes as an empty text.
func parseLabels(json string, level labels.Flags) (*labels.Set, error) {
	s := new(labels.Set)
	if json == "" {
		return s, nil
	}
	if err := labels.Parse(s, []byte(json), labels.Options{Flags: level}); err != nil {
		return nil, &protocolError{what: "label set from pmcd", err: err}
	}
	return s, nil
}
