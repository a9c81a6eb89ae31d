package archive

import (
	"context"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// The methods below give a Context what a live pmcd's client offers
// (package pmapi's Source): names, descriptors, instance domains, help
// text and label sets from the metadata, as of the context's current
// time where they change with time. The context.Context arguments are
// there for the shared interface; reading an archive does not block on
// them.

// now is the context's current time: the next interpolation time, or the
// last record Fetch returned (the origin before the first).
func (c *Context) now() Timestamp {
	if c.mode == Interp {
		return c.t
	}
	return c.origin
}

// LookupName returns the pmIDs of names (pmLookupName); a name the
// archive does not have is PM_ERR_NAME.
func (c *Context) LookupName(_ context.Context, names ...string) ([]pcp.ID, error) {
	ids := make([]pcp.ID, len(names))
	for i, n := range names {
		m, ok := c.a.Meta.Lookup(n)
		if !ok {
			return nil, pcp.ErrName
		}
		ids[i] = m.ID
	}
	return ids, nil
}

// NameID returns every name of a metric (pmNameAll).
func (c *Context) NameID(_ context.Context, id pcp.ID) ([]string, error) {
	m, ok := c.a.Meta.Metric(id)
	if !ok {
		return nil, pcp.ErrPMIDLog
	}
	return append([]string(nil), m.Names...), nil
}

// LookupDesc returns a metric's descriptor (pmLookupDesc).
func (c *Context) LookupDesc(_ context.Context, id pcp.ID) (pduwire.Desc, error) {
	m, ok := c.a.Meta.Metric(id)
	if !ok {
		return pduwire.Desc{}, pcp.ErrPMIDLog
	}
	return m.Desc, nil
}

// GetInDom lists the instances of an instance domain as of the current
// time (pmGetInDom in an archive context).
func (c *Context) GetInDom(_ context.Context, indom pcp.InDom) ([]pcp.Instance, error) {
	in, ok := c.a.Meta.InDomAt(indom, c.now())
	if !ok {
		return nil, pcp.ErrInDomLog
	}
	out := make([]pcp.Instance, len(in.Inst))
	for i := range in.Inst {
		out[i] = pcp.Instance{Inst: in.Inst[i], Name: in.Names[i]}
	}
	return out, nil
}

// LookupText returns a metric's one-line or long help text
// (pmLookupText), the one-line text for a long one the archive lacks or
// has empty, as
// pmapi.Client.LookupText falls back; PM_ERR_TEXT when it has neither.
func (c *Context) LookupText(_ context.Context, id pcp.ID, help bool) (string, error) {
	if help {
		if t, ok := c.a.Meta.Text(TextPMID|TextHelp, uint32(id)); ok && t != "" {
			return t, nil
		}
	}
	t, ok := c.a.Meta.Text(TextPMID|TextOneLine, uint32(id))
	if !ok {
		return "", pcp.ErrText
	}
	return t, nil
}

// LookupLabelSets returns the label sets of one object (kind a
// pduwire.Label* constant, ident its domain, instance domain or pmID) as
// of the current time: the latest record at or before it; none when the
// archive has no labels for it.
func (c *Context) LookupLabelSets(_ context.Context, kind int32, ident uint32) ([]pduwire.LabelSet, error) {
	now := c.now()
	var best *LabelSets
	for i := range c.a.Meta.Labels {
		ls := &c.a.Meta.Labels[i]
		if ls.Type != uint32(kind) || ls.Ident != ident || now.Before(ls.Time) {
			continue
		}
		if best == nil || !ls.Time.Before(best.Time) {
			best = ls
		}
	}
	if best == nil {
		return []pduwire.LabelSet{}, nil
	}
	return append([]pduwire.LabelSet(nil), best.Sets...), nil
}
