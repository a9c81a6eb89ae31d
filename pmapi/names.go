package pmapi

import (
	"context"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// LookupName resolves metric names to pmIDs (pmLookupName). Names that do
// not resolve get pcp.IDNull; if none resolves the call fails with the
// server's error (PM_ERR_NAME).
func (c *Client) LookupName(ctx context.Context, names ...string) ([]pcp.ID, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	req := pduwire.PMNSNamesPDU{Names: make([][]byte, len(names))}
	for i, n := range names {
		req.Names[i] = []byte(n)
	}
	c.out = req.Append(c.out[:0], 0)
	p, err := c.exchange(ctx, "lookup name", pduwire.TypePMNSIDs)
	if err != nil {
		return nil, err
	}
	var ids pduwire.PMNSIDsPDU
	if err := c.decode("lookup name", p, &ids); err != nil {
		return nil, err
	}
	if ids.Status < 0 {
		return nil, &ServerError{Op: "lookup name", Code: pcp.Code(ids.Status)}
	}
	if len(ids.PMIDs) != len(names) {
		return nil, c.fail(&protocolError{what: "lookup name: reply has a different number of pmIDs"})
	}
	return append([]pcp.ID(nil), ids.PMIDs...), nil
}

// NameID returns every name of a pmID (pmNameAll).
func (c *Client) NameID(ctx context.Context, id pcp.ID) ([]string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	req := pduwire.PMNSIDsPDU{PMIDs: []pcp.ID{id}}
	c.out = req.Append(c.out[:0], 0)
	names, _, err := c.names(ctx, "name of pmID")
	return names, err
}

// Children returns the names one level below name ("" is the root) and,
// for each, whether it is a leaf (pmGetChildrenStatus).
func (c *Client) Children(ctx context.Context, name string) (names []string, leaf []bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	req := pduwire.PMNSChildPDU{Subtype: 1, Name: []byte(name)}
	c.out = req.Append(c.out[:0], 0)
	names, status, err := c.names(ctx, "children")
	if err != nil {
		return nil, nil, err
	}
	leaf = make([]bool, len(names))
	for i := range leaf {
		leaf[i] = i >= len(status) || status[i] == 0
	}
	return names, leaf, nil
}

// Traverse returns every leaf name at or below name (pmTraversePMNS), in
// pmcd's order.
func (c *Client) Traverse(ctx context.Context, name string) ([]string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	req := pduwire.PMNSChildPDU{Traverse: true, Name: []byte(name)}
	c.out = req.Append(c.out[:0], 0)
	names, _, err := c.names(ctx, "traverse")
	return names, err
}

// names runs the request in c.out and decodes a PMNS_NAMES reply.
func (c *Client) names(ctx context.Context, op string) ([]string, []int32, error) {
	p, err := c.exchange(ctx, op, pduwire.TypePMNSNames)
	if err != nil {
		return nil, nil, err
	}
	var m pduwire.PMNSNamesPDU
	if err := c.decode(op, p, &m); err != nil {
		return nil, nil, err
	}
	if m.Status < 0 {
		return nil, nil, &ServerError{Op: op, Code: pcp.Code(m.Status)}
	}
	out := make([]string, len(m.Names))
	for i, n := range m.Names {
		out[i] = string(n)
	}
	return out, append([]int32(nil), m.Statuses...), nil
}
