package pmapi

import (
	"context"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// LookupText returns the one-line (help false) or full (help true) help
// text of a metric (pmLookupText). Like libpcp, it answers a request for
// full help that pmcd answers empty with the one-line text.
func (c *Client) LookupText(ctx context.Context, id pcp.ID, help bool) (string, error) {
	return c.textOrOneline(ctx, uint32(id), pduwire.TextPMID, help)
}

// LookupInDomText returns the help text of an instance domain
// (pmLookupInDomText), with the same fallback as LookupText.
func (c *Client) LookupInDomText(ctx context.Context, indom pcp.InDom, help bool) (string, error) {
	return c.textOrOneline(ctx, uint32(indom), pduwire.TextInDom, help)
}

func (c *Client) textOrOneline(ctx context.Context, ident uint32, kind int32, help bool) (string, error) {
	s, err := c.text(ctx, ident, kind, help)
	if err == nil && help && s == "" {
		return c.text(ctx, ident, kind, false)
	}
	return s, err
}

func (c *Client) text(ctx context.Context, ident uint32, kind int32, help bool) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if help {
		kind |= pduwire.TextHelp
	} else {
		kind |= pduwire.TextOneline
	}
	req := pduwire.TextReqPDU{Ident: ident, Kind: kind}
	c.out = req.Append(c.out[:0], 0)
	p, err := c.exchange(ctx, "lookup text", pduwire.TypeText)
	if err != nil {
		return "", err
	}
	var m pduwire.TextPDU
	if err := c.decode("lookup text", p, &m); err != nil {
		return "", err
	}
	return string(m.Text), nil
}
