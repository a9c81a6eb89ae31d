package pmapi

import (
	"context"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// LookupDesc returns the descriptor of one metric (pmLookupDesc).
func (c *Client) LookupDesc(ctx context.Context, id pcp.ID) (pduwire.Desc, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.descReq(ctx, id)
}

// LookupDescs returns the descriptors of several metrics in one DESC_IDS
// exchange when pmcd supports it, else one DESC_REQ each
// (pmLookupDescs). A metric pmcd cannot describe gets a Desc whose PMID is
// pcp.IDNull, as libpcp reports partial success.
func (c *Client) LookupDescs(ctx context.Context, ids ...pcp.ID) ([]pduwire.Desc, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(ids) == 0 {
		return nil, nil
	}
	if !c.features.DescIDs() {
		out := make([]pduwire.Desc, len(ids))
		for i, id := range ids {
			d, err := c.descReq(ctx, id)
			if _, ok := err.(*ServerError); ok {
				d = pduwire.Desc{ID: pcp.IDNull}
			} else if err != nil {
				return nil, err
			}
			out[i] = d
		}
		return out, nil
	}
	req := pduwire.DescIDsPDU{PMIDs: ids}
	c.out = req.Append(c.out[:0], 0)
	p, err := c.exchange(ctx, "lookup descs", pduwire.TypeDescs)
	if err != nil {
		return nil, err
	}
	var m pduwire.DescsPDU
	if err := c.decode("lookup descs", p, &m); err != nil {
		return nil, err
	}
	if len(m.Descs) != len(ids) {
		return nil, c.fail(&protocolError{what: "lookup descs: reply has a different number of descriptors"})
	}
	return append([]pduwire.Desc(nil), m.Descs...), nil
}

func (c *Client) descReq(ctx context.Context, id pcp.ID) (pduwire.Desc, error) {
	req := pduwire.DescReqPDU{PMID: id}
	c.out = req.Append(c.out[:0], 0)
	p, err := c.exchange(ctx, "lookup desc", pduwire.TypeDesc)
	if err != nil {
		return pduwire.Desc{}, err
	}
	var m pduwire.DescPDU
	if err := c.decode("lookup desc", p, &m); err != nil {
		return pduwire.Desc{}, err
	}
	return m.Desc, nil
}
