package pmapi

import (
	"context"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// Fetch asks pmcd for the current values of the metrics (pmFetch), with a
// HIGHRES_FETCH when pmcd supports it. The result is a validated view of
// the reply: it aliases the client's receive buffer and is valid until the
// next call on this Client from any goroutine. Goroutines sharing a Client
// use FetchBuf. A metric that failed has a value set with a negative
// NumVal, as libpcp reports it; the call itself fails only when the whole
// fetch does.
func (c *Client) Fetch(ctx context.Context, ids ...pcp.ID) (pduwire.Result, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	pdu, err := c.fetch(ctx, ids)
	if err != nil {
		return pduwire.Result{}, err
	}
	return pduwire.ParseResult(pdu)
}

// FetchBuf is Fetch with the reply copied into buf (grown when too small)
// before the client is released: the returned view aliases the returned
// buffer, not the client's, so it stays valid while other goroutines use
// the Client and until the caller reuses the buffer. Passing the returned
// buffer back in makes a steady fetch loop allocation-free.
func (c *Client) FetchBuf(ctx context.Context, buf []byte, ids ...pcp.ID) (pduwire.Result, []byte, error) {
	c.mu.Lock()
	pdu, err := c.fetch(ctx, ids)
	if err == nil {
		buf = append(buf[:0], pdu...)
	}
	c.mu.Unlock()
	if err != nil {
		return pduwire.Result{}, buf, err
	}
	r, err := pduwire.ParseResult(buf)
	return r, buf, err
}

// fetch runs one fetch exchange and returns the validated reply PDU. The
// caller holds c.mu.
func (c *Client) fetch(ctx context.Context, ids []pcp.ID) ([]byte, error) {
	if err := c.ensureProfile(ctx); err != nil {
		return nil, err
	}
	req := pduwire.Fetch{Highres: c.features.HighresFetch(), PMIDs: ids}
	c.out = req.Append(c.out[:0], 0)
	p, err := c.exchange(ctx, "fetch", pduwire.TypeResult, pduwire.TypeHighresResult)
	if err != nil {
		return nil, err
	}
	r, err := pduwire.ParseResult(p.Bytes)
	if err != nil {
		return nil, c.fail(&protocolError{what: "fetch reply", err: err})
	}
	if r.NumPMID != len(ids) {
		return nil, c.fail(&protocolError{what: "fetch reply has a different number of value sets"})
	}
	return p.Bytes, nil
}

// SetProfile replaces the instance profile of the client's context
// (pmAddProfile/pmDelProfile): which instances fetches return. It is sent
// now; pmcd does not reply to a PROFILE.
func (c *Client) SetProfile(ctx context.Context, p pduwire.Profile) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return ErrClosed
	}
	p.Ctx = 0
	return c.sendProfile(ctx, &p)
}

// ensureProfile sends the default "everything" profile once: pmcd answers
// a fetch on a context without a profile with PM_ERR_NOPROFILE.
func (c *Client) ensureProfile(ctx context.Context) error {
	if c.closed {
		return ErrClosed
	}
	if c.profile {
		return nil
	}
	return c.sendProfile(ctx, &pduwire.Profile{State: pduwire.ProfileInclude})
}

func (c *Client) sendProfile(ctx context.Context, p *pduwire.Profile) error {
	stop := c.arm(ctx)
	defer stop()
	c.out = p.Append(c.out[:0], 0)
	if _, err := c.rw.Write(c.out); err != nil {
		return c.wireErr(ctx, err)
	}
	c.profile = true
	return nil
}

// Store sends new values for metrics (pmStore), as a RESULT with a zero
// timestamp. pmcd answers ERROR(0) on success; a refusal (for example
// PM_ERR_PERMISSION for a read-only metric) is a *ServerError.
func (c *Client) Store(ctx context.Context, sets []pduwire.ValueSetData) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	req := pduwire.ResultData{Sets: sets}
	c.out = req.Append(c.out[:0], 0)
	p, err := c.exchange(ctx, "store", pduwire.TypeError)
	if err != nil {
		return err
	}
	var e pduwire.ErrorPDU
	if err := c.decode("store", p, &e); err != nil {
		return err
	}
	if e.Code != 0 {
		return &ServerError{Op: "store", Code: pcp.Code(e.Code)}
	}
	return nil
}
