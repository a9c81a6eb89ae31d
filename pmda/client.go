package pmda

import (
	"bytes"

	"github.com/perfwire/perfwire/pduwire"
)

// doAttr records one client attribute; ATTR is never answered, and an
// attribute that breaks libpcp's character rules is dropped.
func (w *worker) doAttr(ctx int32) {
	var at pduwire.AttrPDU
	if at.UnmarshalBinary(w.in) != nil {
		w.a.logf("ATTR does not decode: ignored")
		return
	}
	if err := pduwire.CheckAttrValue(at.Attr, at.Value); err != nil {
		w.a.logf("ATTR %d of context %d: %v: ignored", at.Attr, ctx, err)
		return
	}
	v := string(bytes.TrimRight(at.Value, "\x00"))
	a := w.a
	a.cmu.Lock()
	defer a.cmu.Unlock()
	old, ok := a.clients[ctx]
	if !ok && len(a.clients) >= a.lim.MaxContexts {
		a.logf("attributes of more than %d contexts: context %d's dropped", a.lim.MaxContexts, ctx)
		return
	}
	c := Client{Ctx: ctx}
	if old != nil {
		c = *old
	}
	switch at.Attr {
	case pduwire.AttrUsername:
		c.UserName = v
	case pduwire.AttrUserID:
		c.UserID = v
	case pduwire.AttrGroupID:
		c.GroupID = v
	case pduwire.AttrProcessID:
		c.ProcessID = v
	case pduwire.AttrContainer:
		c.Container = v
	default:
		return
	}
	a.clients[ctx] = &c
}

func (a *Agent) client(ctx int32) *Client {
	a.cmu.Lock()
	defer a.cmu.Unlock()
	return a.clients[ctx]
}

func (a *Agent) endContext(ctx int32) {
	a.cmu.Lock()
	delete(a.clients, ctx)
	a.cmu.Unlock()
	if a.opts.EndContext != nil {
		a.opts.EndContext(ctx)
	}
}
