package pmapi

import (
	"context"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// Instance is one member of an instance domain.
type Instance = pcp.Instance

// GetInDom lists every instance of an instance domain (pmGetInDom).
func (c *Client) GetInDom(ctx context.Context, indom pcp.InDom) ([]Instance, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m, err := c.instance(ctx, "get indom", pduwire.InstanceReqPDU{InDom: indom, Inst: pcp.InNull})
	if err != nil {
		return nil, err
	}
	out := make([]Instance, len(m.Instances))
	for i, e := range m.Instances {
		out[i] = Instance{Inst: e.Inst, Name: string(e.Name)}
	}
	return out, nil
}

// LookupInDom returns the instance number of an instance name
// (pmLookupInDom).
func (c *Client) LookupInDom(ctx context.Context, indom pcp.InDom, name string) (int32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m, err := c.instance(ctx, "lookup indom", pduwire.InstanceReqPDU{InDom: indom, Inst: pcp.InNull, Name: []byte(name)})
	if err != nil {
		return 0, err
	}
	if len(m.Instances) != 1 {
		return 0, c.fail(&protocolError{what: "lookup indom: reply does not hold one instance"})
	}
	return m.Instances[0].Inst, nil
}

// NameInDom returns the name of an instance number (pmNameInDom).
func (c *Client) NameInDom(ctx context.Context, indom pcp.InDom, inst int32) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m, err := c.instance(ctx, "name indom", pduwire.InstanceReqPDU{InDom: indom, Inst: inst})
	if err != nil {
		return "", err
	}
	if len(m.Instances) != 1 {
		return "", c.fail(&protocolError{what: "name indom: reply does not hold one instance"})
	}
	return string(m.Instances[0].Name), nil
}

func (c *Client) instance(ctx context.Context, op string, req pduwire.InstanceReqPDU) (*pduwire.InstancePDU, error) {
	c.out = req.Append(c.out[:0], 0)
	p, err := c.exchange(ctx, op, pduwire.TypeInstance)
	if err != nil {
		return nil, err
	}
	var m pduwire.InstancePDU
	if err := c.decode(op, p, &m); err != nil {
		return nil, err
	}
	return &m, nil
}
