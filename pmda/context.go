package pmda

import (
	"context"
	"sync"
	"time"
)

// callCtx is the context callbacks receive: one per worker, reused for
// every request so that a fetch allocates nothing. It carries the request's
// deadline and client, and is done when the agent gives up on the call.
type callCtx struct {
	parent context.Context
	client *Client

	mu       sync.Mutex
	deadline time.Time
	done     chan struct{}
	err      error
}

type clientKey struct{}

// ClientOf returns the attributes pmcd sent for the client context a
// callback serves, or nil (no [Options.Attributes], or none sent yet).
func ClientOf(ctx context.Context) *Client {
	c, _ := ctx.Value(clientKey{}).(*Client)
	return c
}

func (c *callCtx) Deadline() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.deadline, !c.deadline.IsZero()
}

func (c *callCtx) Done() <-chan struct{} { return c.done }

func (c *callCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *callCtx) Value(key any) any {
	if _, ok := key.(clientKey); ok {
		return c.client
	}
	return c.parent.Value(key)
}

func (c *callCtx) setDeadline(t time.Time) {
	c.mu.Lock()
	c.deadline = t
	c.mu.Unlock()
}

// cancel ends the context for good with err: the worker using it is
// abandoned, or Serve's context is done.
func (c *callCtx) cancel(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.err = err
		close(c.done)
	}
}
