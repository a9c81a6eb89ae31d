package pmapi

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// DefaultAddr is pmcd's TCP address on the local host.
const DefaultAddr = "127.0.0.1:44321"

// DefaultSocket is where Debian's pmcd listens for local connections.
const DefaultSocket = "/run/pcp/pmcd.socket"

// Client is one connection to pmcd, holding one PMAPI context.
type Client struct {
	mu       sync.Mutex
	conn     net.Conn
	rw       io.ReadWriter // conn, or blk
	blk      blockingIO    // non-nil with WithBlockingIO
	rd       *pduwire.Reader
	features pduwire.Features
	timeout  time.Duration
	out      []byte // send buffer, reused
	closed   bool
	profile  bool  // a PROFILE has been sent for context 0
	changes  int32 // positive ERROR codes seen before results, ORed
}

// Option configures Dial.
type Option func(*config)

type config struct {
	timeout  time.Duration
	limit    int
	dialer   net.Dialer
	blocking bool
}

// blockingIO is a connection's I/O through blocking system calls.
type blockingIO interface {
	io.ReadWriter
	interrupt() // wakes a call blocked in the kernel; the connection is done
}

// WithTimeout bounds each request/reply exchange (default 10 s, libpcp's
// default request timeout) when the context has no earlier deadline.
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithMaxPDU sets the largest PDU accepted from pmcd (default
// pduwire.DefaultClientLimit).
func WithMaxPDU(n int) Option { return func(c *config) { c.limit = n } }

// WithBlockingIO makes the connection read and write with blocking system
// calls, as libpcp does, instead of parking the goroutine in Go's network
// poller while pmcd answers. A client that fetches in a loop then spends
// markedly less CPU per request (bench/RESULTS.md has the figures); the
// price is an OS thread held by the client while it waits. The client
// timeout then bounds each read and write (SO_RCVTIMEO, SO_SNDTIMEO), and
// a context's deadline or cancellation shuts the connection down, which
// ends the request at once. It has an effect on Linux, macOS and the BSDs,
// for TCP and unix-socket connections; elsewhere it is ignored.
func WithBlockingIO() Option { return func(c *config) { c.blocking = true } }

// Dial connects to pmcd at addr and performs the handshake. addr is
// "host:port" for TCP, or "local:" / "unix:PATH" / an absolute path for the
// unix socket; "" means DefaultAddr.
func Dial(ctx context.Context, addr string, opts ...Option) (*Client, error) {
	cfg := config{timeout: 10 * time.Second, limit: pduwire.DefaultClientLimit}
	for _, o := range opts {
		o(&cfg)
	}
	network, address := "tcp", addr
	switch {
	case addr == "":
		address = DefaultAddr
	case addr == "local:" || addr == "unix:":
		network, address = "unix", DefaultSocket
	case strings.HasPrefix(addr, "unix:"):
		network, address = "unix", strings.TrimPrefix(addr, "unix:")
	case strings.HasPrefix(addr, "/"):
		network = "unix"
	}
	conn, err := cfg.dialer.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	c := &Client{conn: conn, rw: conn, timeout: cfg.timeout}
	if cfg.blocking {
		if c.blk = newBlocking(conn, cfg.timeout); c.blk != nil {
			c.rw = c.blk
		}
	}
	c.rd = pduwire.NewReader(c.rw, cfg.limit)
	if err := c.handshake(ctx); err != nil {
		conn.Close()
		return nil, err
	}
	return c, nil
}

// handshake reads pmcd's 20-byte ERROR PDU and answers with CREDS.
func (c *Client) handshake(ctx context.Context) error {
	stop := c.arm(ctx)
	defer stop()
	p, err := c.rd.Next()
	if err != nil {
		return c.wireErr(ctx, err)
	}
	var hello pduwire.ErrorPDU
	if p.Header.Type != pduwire.TypeError {
		return &protocolError{what: "first PDU is " + p.Header.Type.String() + ", not ERROR"}
	}
	if err := hello.UnmarshalBinary(p.Bytes); err != nil || !hello.Extended {
		return &protocolError{what: "bad handshake ERROR PDU", err: err}
	}
	if code := pcp.FromV1(hello.Code); code < 0 {
		return &ServerError{Op: "connect", Code: pcp.Code(int32(code))}
	}
	c.features = pduwire.Features(hello.Datum)
	c.out = pduwire.AppendClientCreds(c.out[:0], int32(os.Getpid()), pduwire.ClientFlags(c.features))
	if _, err := c.rw.Write(c.out); err != nil {
		return c.wireErr(ctx, err)
	}
	return nil
}

// Features returns the features word pmcd advertised.
func (c *Client) Features() pduwire.Features { return c.features }

// Changes returns and clears the state-change bits (PMCD_ADD_AGENT,
// PMCD_LABEL_CHANGE, ...) pmcd announced before results since the last
// call.
func (c *Client) Changes() int32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := c.changes
	c.changes = 0
	return ch
}

// Close closes the connection. It is safe to call more than once.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	return c.conn.Close()
}

// arm applies the context's deadline (or the client timeout, whichever
// comes first) to the connection, and makes cancellation interrupt any
// blocked read or write. The returned function disarms it.
func (c *Client) arm(ctx context.Context) func() {
	if c.blk != nil {
		// The timeout is the socket's; only the context needs watching.
		if ctx.Done() == nil {
			return func() {}
		}
		stop := context.AfterFunc(ctx, c.blk.interrupt)
		return func() { stop() }
	}
	deadline := time.Now().Add(c.timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	c.conn.SetDeadline(deadline)
	if ctx.Done() == nil { // never cancelled: keep the fetch loop allocation-free
		return func() {}
	}
	stop := context.AfterFunc(ctx, func() { c.conn.SetDeadline(time.Unix(1, 0)) })
	return func() { stop() }
}

// wireErr closes the connection after a failed exchange and prefers the
// context's error when it caused the failure.
func (c *Client) wireErr(ctx context.Context, err error) error {
	c.closed = true
	c.conn.Close()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	// The connection deadline is the context's when that comes first, and
	// the socket may time out a moment before ctx.Err() turns non-nil.
	if d, ok := ctx.Deadline(); ok && errors.Is(err, os.ErrDeadlineExceeded) && !time.Now().Before(d) {
		return context.DeadlineExceeded
	}
	if _, ok := errors.AsType[*pduwire.ParseError](err); ok {
		return &protocolError{what: "bad PDU from pmcd", err: err}
	}
	return err
}

// exchange sends one request PDU (already in c.out) and returns the reply,
// skipping positive-code ERROR PDUs (state changes) that may precede it.
// A negative ERROR becomes a *ServerError. The reply aliases the reader's
// buffer until the next exchange. The caller holds c.mu.
func (c *Client) exchange(ctx context.Context, op string, want ...pduwire.Type) (pduwire.PDU, error) {
	if c.closed {
		return pduwire.PDU{}, ErrClosed
	}
	stop := c.arm(ctx)
	defer stop()
	if _, err := c.rw.Write(c.out); err != nil {
		return pduwire.PDU{}, c.wireErr(ctx, err)
	}
	return c.reply(ctx, op, want...)
}

// reply reads until a PDU of one of the wanted types arrives.
func (c *Client) reply(ctx context.Context, op string, want ...pduwire.Type) (pduwire.PDU, error) {
	for {
		p, err := c.rd.Next()
		if err != nil {
			return p, c.wireErr(ctx, err)
		}
		if p.Header.Type == pduwire.TypeError {
			var e pduwire.ErrorPDU
			if err := e.UnmarshalBinary(p.Bytes); err != nil {
				return p, c.fail(&protocolError{what: op + " reply", err: err})
			}
			if e.Code > 0 {
				c.changes |= e.Code
				continue
			}
			for _, w := range want {
				if w == pduwire.TypeError {
					return p, nil
				}
			}
			if e.Code == 0 {
				return p, c.fail(&protocolError{what: op + ": unexpected ERROR(0)"})
			}
			return p, &ServerError{Op: op, Code: pcp.Code(e.Code)}
		}
		for _, w := range want {
			if p.Header.Type == w {
				return p, nil
			}
		}
		return p, c.fail(&protocolError{what: op + ": unexpected " + p.Header.Type.String() + " PDU"})
	}
}

// fail closes the connection because lock-step is lost, and returns err.
func (c *Client) fail(err error) error {
	c.closed = true
	c.conn.Close()
	return err
}

// decode unmarshals a reply into m; a failure closes the connection.
func (c *Client) decode(op string, p pduwire.PDU, m pduwire.Message) error {
	if err := m.UnmarshalBinary(p.Bytes); err != nil {
		return c.fail(&protocolError{what: op + " reply", err: err})
	}
	return nil
}
