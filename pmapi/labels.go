package pmapi

import (
	"context"

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
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.features.Labels() {
		return nil, &ServerError{Op: "lookup labels", Code: -12413} // PM_ERR_FEATURE
	}
	req := pduwire.LabelReq{Ident: ident, Kind: kind}
	c.out = req.Append(c.out[:0], 0)
	p, err := c.exchange(ctx, "lookup labels", pduwire.TypeLabel)
	if err != nil {
		return nil, err
	}
	var m pduwire.Label
	if err := c.decode("lookup labels", p, &m); err != nil {
		return nil, err
	}
	out := make([]LabelSet, 0, len(m.Sets))
	for _, s := range m.Sets {
		if s.NLabels < 0 {
			return nil, &ServerError{Op: "lookup labels", Code: s.NLabels}
		}
		out = append(out, LabelSet{Inst: s.Inst, JSON: string(s.JSON)})
	}
	return out, nil
}
