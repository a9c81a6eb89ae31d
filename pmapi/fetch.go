package pmapi

import (
	"bytes"
	"context"
	"strconv"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// Fetch asks pmcd for the current values of the metrics (pmFetch), with a
// HIGHRES_FETCH when pmcd supports it, and returns the validated reply.
// The result is the caller's: it holds its own copy of the reply, made
// before the client is released, so other goroutines' calls on the Client
// do not touch it. A metric that failed has a value set with a negative
// NumVal, as libpcp reports it; the call itself fails only when the whole
// fetch does: a *ServerError for pmcd's refusal, an *OpError for a
// timeout, a cancellation or a broken connection, ErrProtocol for a reply
// that does not decode.
func (c *Client) Fetch(ctx context.Context, ids ...pcp.ID) (pduwire.Result, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fetch(ctx, ids, true)
}

// FetchBuf is Fetch without the copy: the result is a view of the
// client's receive buffer, valid only until the next call on this Client
// from any goroutine, which overwrites it. A loop that fetches and reads
// each result before the next call does not allocate. A program that
// shares the Client between goroutines uses Fetch.
func (c *Client) FetchBuf(ctx context.Context, ids ...pcp.ID) (pduwire.Result, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fetch(ctx, ids, false)
}

// fetch runs one fetch exchange and returns the validated reply, on a
// copy of it when own is set. The caller holds c.mu.
func (c *Client) fetch(ctx context.Context, ids []pcp.ID, own bool) (pduwire.Result, error) {
	if err := c.ensureProfile(ctx); err != nil {
		return pduwire.Result{}, err
	}
	req := pduwire.FetchPDU{HighRes: c.features.HighResFetch(), PMIDs: ids}
	c.out = req.Append(c.out[:0], 0)
	p, err := c.exchange(ctx, "fetch", pduwire.TypeResult, pduwire.TypeHighResResult)
	if err != nil {
		return pduwire.Result{}, err
	}
	b := p.Bytes
	if own {
		b = bytes.Clone(b)
	}
	r, err := pduwire.ParseResult(b)
	if err != nil {
		return r, c.fail(&protocolError{what: "fetch: " + p.Header.Type.String() + " reply to " + c.request().String(), err: err})
	}
	if r.NumPMID != len(ids) {
		return pduwire.Result{}, c.fail(&protocolError{what: "fetch: " + p.Header.Type.String() + " reply has " +
			strconv.Itoa(r.NumPMID) + " value sets for " + strconv.Itoa(len(ids)) + " metrics"})
	}
	return r, nil
}

// SetProfile replaces the instance profile of the client's context
// (pmAddProfile/pmDelProfile): which instances fetches return. It is sent
// now; pmcd does not reply to a PROFILE.
func (c *Client) SetProfile(ctx context.Context, p pduwire.ProfilePDU) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return c.errClosed()
	}
	p.Ctx = 0
	return c.sendProfile(ctx, &p)
}

// ensureProfile sends the default "everything" profile once: pmcd answers
// a fetch on a context without a profile with PM_ERR_NOPROFILE.
func (c *Client) ensureProfile(ctx context.Context) error {
	if c.closed {
		return c.errClosed()
	}
	if c.profile {
		return nil
	}
	return c.sendProfile(ctx, &pduwire.ProfilePDU{State: pduwire.ProfileInclude})
}

func (c *Client) sendProfile(ctx context.Context, p *pduwire.ProfilePDU) error {
	c.out = p.Append(c.out[:0], 0)
	c.arm(ctx, c.timeout)
	_, err := c.rw.Write(c.out)
	if err = c.disarmErr(err); err != nil {
		return c.wireErr(ctx, "profile", false, err)
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
	req := pduwire.ResultPDU{Sets: sets}
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
