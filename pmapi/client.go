package pmapi

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perfwire/perfwire/internal/wire"
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
	conn     net.Conn      // the dialled connection; closed in blocking mode
	rw       io.ReadWriter // conn, or blk
	blk      blockingIO    // non-nil in blocking mode
	closer   io.Closer     // conn, or blk
	rd       *pduwire.Reader
	features pduwire.Features
	timeout  time.Duration
	notices  int    // Options.MaxNotices
	out      []byte // send buffer, reused
	closed   bool
	failed   error // the failure that closed the connection, if one did
	profile  bool  // a PROFILE has been sent for context 0
	changes  int32 // positive ERROR codes seen before results, ORed

	// The watch over the exchange in progress (see arm).
	limit   time.Duration // how long it may take
	byCtx   bool          // the limit is the context's deadline, not the timeout
	stopCtx func() bool   // stops the context's watch; nil when none
	timer   *time.Timer   // blocking mode: shuts the connection at the limit
	expired atomic.Bool   // blocking mode: the timer fired
	yielded time.Time     // blocking mode: when arm last yielded (see yieldEvery)
}

// yieldEvery is how often a blocking-mode client yields its processor
// (runtime.Gosched) at the start of an exchange. A goroutine that waits
// only in blocking system calls never passes through the scheduler, so
// after 10 ms of fetching the runtime's monitor takes it for one that
// computes without pause: it preempts it, hands its processor to another
// thread, and polls every 20 µs for the next millisecond or more. Against
// a pmcd that answers at once (bench/RESULTS.md, fetch-client) that was
// about 8% of a fetch loop's CPU, and a fifth of a bare write and read
// loop's; a yield every few milliseconds costs nothing measurable.
const yieldEvery = 2 * time.Millisecond

// Options configures Dial. The zero value means the defaults: each zero
// field is replaced by its default on its own.
//
// Dial takes this struct, as every constructor in perfwire takes its
// Options (docs/api.md), rather than functional options: every setting
// is a plain value, a zero value has an obvious meaning, and a program
// can build, keep and print its configuration.
type Options struct {
	// Timeout bounds each exchange with pmcd as a whole, from the first
	// byte sent to the last byte of the reply received, however slowly
	// the bytes come: Dial's connect and handshake together, and each
	// request with its reply. A context deadline that comes earlier
	// bounds the exchange instead. Zero means DefaultTimeout.
	Timeout time.Duration
	// MaxPDU is the largest PDU accepted from pmcd; a longer one ends the
	// exchange with pduwire.ErrLimit. Zero means DefaultMaxPDU.
	MaxPDU int
	// MaxNotices bounds the state-change ERROR PDUs (positive codes)
	// accepted before one reply. pmcd sends one per change it announces;
	// more than this ends the exchange with ErrProtocol. Zero means
	// DefaultMaxNotices.
	MaxNotices int
	// BlockingIO makes the connection read and write with blocking system
	// calls, as libpcp does, instead of parking the goroutine in Go's
	// network poller while pmcd answers: the client works on a duplicate
	// of the socket's descriptor that the poller does not watch. A client
	// that fetches in a loop then spends markedly less CPU per request
	// (bench/RESULTS.md has the figures); the price is an OS thread held
	// by the client while it waits. Timeout and the context bound each
	// exchange as in the default mode: a timer or the context's end shuts
	// the connection down, which ends a blocked call at once. It has an
	// effect on Linux, macOS and the BSDs, for TCP and unix-socket
	// connections; elsewhere it is ignored.
	BlockingIO bool
}

// The defaults of Options.
const (
	// DefaultTimeout is libpcp's default request timeout.
	DefaultTimeout = 10 * time.Second
	// DefaultMaxPDU is pduwire's ceiling for PDUs a client accepts.
	DefaultMaxPDU = pduwire.DefaultMaxPDULen
	// DefaultMaxNotices is far above the handful of state changes pmcd
	// announces before a reply, and low enough that a peer flooding
	// notices is cut off in microseconds.
	DefaultMaxNotices = 64
)

// blockingIO is a connection's I/O through blocking system calls.
type blockingIO interface {
	io.ReadWriteCloser
	interrupt() // wakes a call blocked in the kernel; the connection is done
}

// Dial connects to pmcd at addr and performs the handshake, within
// o.Timeout and the context's deadline. addr is "host:port" for TCP, or
// "local:" / "unix:PATH" / an absolute path for the unix socket; "" means
// DefaultAddr. A failure to connect or to complete the handshake is an
// *OpError; pmcd refusing the connection is a *ServerError; a greeting
// that is not pmcd's wraps ErrProtocol.
func Dial(ctx context.Context, addr string, o Options) (*Client, error) {
	o.Timeout = wire.Default(o.Timeout, DefaultTimeout)
	o.MaxPDU = wire.Default(o.MaxPDU, DefaultMaxPDU)
	o.MaxNotices = wire.Default(o.MaxNotices, DefaultMaxNotices)
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
	deadline := time.Now().Add(o.Timeout) // for connect and handshake together
	dialer := net.Dialer{Deadline: deadline}
	conn, err := dialer.DialContext(ctx, network, address)
	if err != nil {
		return nil, &OpError{Op: "connect", Err: err}
	}
	c := &Client{conn: conn, rw: conn, closer: conn, timeout: o.Timeout, notices: o.MaxNotices}
	if o.BlockingIO {
		if c.blk = newBlocking(conn, o.Timeout); c.blk != nil {
			c.rw, c.closer = c.blk, c.blk
			c.timer = time.AfterFunc(time.Hour, c.expire)
			c.timer.Stop()
		}
	}
	c.rd = pduwire.NewReader(c.rw, pduwire.Options{MaxPDULen: o.MaxPDU})
	if err := c.handshake(ctx, time.Until(deadline)); err != nil {
		c.closer.Close()
		return nil, err
	}
	return c, nil
}

// expire ends a blocking-mode exchange that reached its limit.
func (c *Client) expire() {
	c.expired.Store(true)
	c.blk.interrupt()
}

// handshake reads pmcd's 20-byte ERROR PDU and answers with CREDS.
func (c *Client) handshake(ctx context.Context, limit time.Duration) error {
	c.arm(ctx, limit)
	err := c.greet()
	if err = c.disarmErr(err); err != nil {
		return c.wireErr(ctx, "connect", true, err)
	}
	return nil
}

// errInterrupted stands for an I/O call that the exchange's watch cut
// short at the moment the exchange completed; wireErr says which limit.
var errInterrupted = errors.New("interrupted")

// next reads the next PDU; pmcd closing the connection between PDUs is
// io.EOF.
func (c *Client) next() (pduwire.PDU, error) {
	if c.rd.Next() {
		return c.rd.PDU(), nil
	}
	if err := c.rd.Err(); err != nil {
		return pduwire.PDU{}, err
	}
	return pduwire.PDU{}, io.EOF
}

func (c *Client) greet() error {
	p, err := c.next()
	if err != nil {
		return err
	}
	var hello pduwire.ErrorPDU
	if p.Header.Type != pduwire.TypeError {
		return &protocolError{what: "connect: first PDU is " + p.Header.Type.String() + ", not ERROR"}
	}
	if err := hello.UnmarshalBinary(p.Bytes); err != nil || !hello.Extended {
		return &protocolError{what: "connect: bad handshake ERROR PDU", err: err}
	}
	if code := pcp.FromV1(hello.Code); code < 0 {
		return &ServerError{Op: "connect", Code: pcp.Code(int32(code))}
	}
	c.features = pduwire.Features(hello.Datum)
	c.out = pduwire.AppendClientCreds(c.out[:0], int32(os.Getpid()), pduwire.ClientFlags(c.features))
	_, err = c.rw.Write(c.out)
	return err
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
	return c.closer.Close()
}

// arm starts the watch over one exchange: it must end within limit, or
// by the context's deadline when that comes first, and the context's
// cancellation ends it at once. In the default mode the connection's
// deadline does it, and cancellation moves the deadline into the past.
// In blocking mode a timer, or the context, shuts the connection down,
// which wakes a read or write blocked in the kernel; SO_RCVTIMEO and
// SO_SNDTIMEO only back that up, since they bound each system call and a
// peer trickling bytes would reset them at every one.
func (c *Client) arm(ctx context.Context, limit time.Duration) {
	now := time.Now()
	c.limit, c.byCtx = limit, false
	if d, ok := ctx.Deadline(); ok && d.Sub(now) < limit {
		c.limit, c.byCtx = d.Sub(now), true
	}
	if c.blk != nil {
		if now.Sub(c.yielded) > yieldEvery {
			c.yielded = now
			runtime.Gosched()
		}
		c.expired.Store(false)
		c.timer.Reset(c.limit)
		if ctx.Done() != nil {
			c.stopCtx = context.AfterFunc(ctx, c.blk.interrupt)
		}
		return
	}
	c.conn.SetDeadline(now.Add(c.limit))
	if ctx.Done() != nil { // never cancelled: keep the fetch loop allocation-free
		c.stopCtx = context.AfterFunc(ctx, c.cancelDeadline)
	}
}

func (c *Client) cancelDeadline() { c.conn.SetDeadline(time.Unix(1, 0)) }

// disarm ends the watch armed by arm. It reports whether the watch
// fired, which it may have done just as the exchange completed: in
// blocking mode the connection is then shut down, and in the default
// mode a cancellation may still move the deadline of the next exchange,
// so either way the connection is done.
func (c *Client) disarm() (fired bool) {
	if c.stopCtx != nil {
		fired = !c.stopCtx()
		c.stopCtx = nil
	}
	if c.blk != nil && !c.timer.Stop() {
		fired = true
	}
	return fired
}

// disarmErr disarms and returns the exchange's error: errInterrupted in
// place of an I/O outcome when the watch fired.
func (c *Client) disarmErr(err error) error {
	if !c.disarm() {
		return err
	}
	switch err.(type) {
	case *ServerError, *protocolError:
		return err
	}
	return errInterrupted
}

// wireErr closes the connection after a failed exchange and says why:
// an *OpError naming the operation, the request PDU and, for a timeout,
// the limit that ran out; a PDU that does not frame wraps ErrProtocol.
func (c *Client) wireErr(ctx context.Context, op string, handshake bool, err error) error {
	return c.fail(c.explain(ctx, op, handshake, err))
}

func (c *Client) explain(ctx context.Context, op string, handshake bool, err error) error {
	switch err.(type) {
	case *ServerError, *protocolError:
		return err
	}
	e := &OpError{Op: op, handshake: handshake}
	if !handshake {
		e.PDU = c.request()
	}
	timedOut := errors.Is(err, os.ErrDeadlineExceeded) || c.expired.Load()
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		e.Err = context.Canceled
	case ctx.Err() != nil || (timedOut || err == errInterrupted) && c.byCtx:
		// The socket may time out a moment before ctx.Err() turns
		// non-nil: the deadline it had was the context's.
		e.Err, e.Limit = context.DeadlineExceeded, c.limit
	case timedOut || err == errInterrupted:
		// The message names Options.Timeout: give its value, not the part
		// of it left for this exchange (Dial's handshake gets what the
		// connect left).
		e.Err, e.Limit = os.ErrDeadlineExceeded, c.timeout
	default:
		if _, ok := errors.AsType[*pduwire.ParseError](err); ok {
			what := op + ": bad PDU from pmcd"
			if !handshake {
				what = op + ": bad PDU from pmcd in reply to " + e.PDU.String()
			}
			if errors.Is(err, pduwire.ErrLimit) {
				what += " (the limit is Options.MaxPDU)" // pduwire's error gives both numbers
			}
			return &protocolError{what: what, err: err}
		}
		e.Err = err
	}
	return e
}

// request returns the type of the PDU in the send buffer.
func (c *Client) request() pduwire.Type {
	if len(c.out) < 8 {
		return 0
	}
	return pduwire.Type(binary.BigEndian.Uint32(c.out[4:8]))
}

// exchange sends one request PDU (already in c.out) and returns the reply,
// skipping positive-code ERROR PDUs (state changes) that may precede it,
// up to c.notices of them. A negative ERROR becomes a *ServerError. The
// reply aliases the reader's buffer until the next exchange. The caller
// holds c.mu.
func (c *Client) exchange(ctx context.Context, op string, want ...pduwire.Type) (pduwire.PDU, error) {
	if c.closed {
		return pduwire.PDU{}, c.errClosed()
	}
	c.arm(ctx, c.timeout)
	p, err := c.roundTrip(op, want)
	switch err = c.disarmErr(err); err.(type) {
	case nil:
		return p, nil
	case *ServerError:
		return p, err
	case *protocolError:
		return p, c.fail(err)
	}
	return p, c.wireErr(ctx, op, false, err)
}

// roundTrip writes the request and reads until a PDU of one of the
// wanted types arrives.
func (c *Client) roundTrip(op string, want []pduwire.Type) (pduwire.PDU, error) {
	if _, err := c.rw.Write(c.out); err != nil {
		return pduwire.PDU{}, err
	}
	for notices := 0; ; notices++ {
		p, err := c.next()
		if err != nil {
			return p, err
		}
		if p.Header.Type == pduwire.TypeError {
			var e pduwire.ErrorPDU
			if err := e.UnmarshalBinary(p.Bytes); err != nil {
				return p, &protocolError{what: op + ": ERROR PDU in reply to " + c.request().String(), err: err}
			}
			if e.Code > 0 {
				if notices == c.notices {
					return p, &protocolError{what: op + ": more than " + strconv.Itoa(c.notices) +
						" state-change ERROR PDUs (Options.MaxNotices) before the reply to " + c.request().String()}
				}
				c.changes |= e.Code
				continue
			}
			if slices.Contains(want, pduwire.TypeError) {
				return p, nil
			}
			if e.Code == 0 {
				return p, &protocolError{what: op + ": unexpected ERROR(0) in reply to " + c.request().String()}
			}
			return p, &ServerError{Op: op, Code: pcp.Code(e.Code)}
		}
		if slices.Contains(want, p.Header.Type) {
			return p, nil
		}
		return p, &protocolError{what: op + ": unexpected " + p.Header.Type.String() + " PDU in reply to " + c.request().String()}
	}
}

// fail closes the connection because lock-step is lost, and returns err.
func (c *Client) fail(err error) error {
	c.closed, c.failed = true, err
	c.closer.Close()
	return err
}

// errClosed is the error of a call on a closed client: ErrClosed, with
// the failure that closed it when there was one.
func (c *Client) errClosed() error {
	if c.failed == nil {
		return ErrClosed
	}
	return &closedError{c.failed}
}

// decode unmarshals a reply into m; a failure closes the connection.
func (c *Client) decode(op string, p pduwire.PDU, m pduwire.Message) error {
	if err := m.UnmarshalBinary(p.Bytes); err != nil {
		return c.fail(&protocolError{what: op + ": " + p.Header.Type.String() + " reply to " + c.request().String(), err: err})
	}
	return nil
}
