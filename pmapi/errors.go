package pmapi

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

var (
	// ErrClosed is returned by calls on a closed client, including one
	// closed because an earlier exchange failed.
	ErrClosed = errors.New("pmapi: client closed")
	// ErrProtocol means pmcd answered with a PDU the exchange does not
	// allow, or with one that does not decode; the connection is closed.
	ErrProtocol = errors.New("pmapi: protocol violation")
)

// ServerError is a negative status pmcd sent for a request: a PM_ERR_*
// code or the −errno of pmcd's host. It unwraps to the pcp.Code, so
// errors.Is(err, pcp.ErrPermission) works.
type ServerError struct {
	Op   string // the request, e.g. "fetch"
	Code pcp.Code
}

// Error names the request and pmcd's status, with pmerr's text.
func (e *ServerError) Error() string {
	return "pmapi: " + e.Op + ": " + e.Code.Message()
}

// Unwrap returns the PCP error code.
func (e *ServerError) Unwrap() error { return e.Code }

// protocolError wraps ErrProtocol with what was wrong.
type protocolError struct {
	what string
	err  error
}

func (e *protocolError) Error() string {
	s := "pmapi: protocol violation: " + e.what
	if e.err != nil {
		s += ": " + e.err.Error()
	}
	return s
}

func (e *protocolError) Unwrap() []error {
	if e.err == nil {
		return []error{ErrProtocol}
	}
	return []error{ErrProtocol, e.err}
}

// OpError is an exchange with pmcd that failed on the wire: it did not
// complete within its limit, the context was cancelled, or the connection
// broke. The connection is closed. It unwraps to the cause:
// os.ErrDeadlineExceeded when Options.Timeout ran out,
// context.DeadlineExceeded or context.Canceled when the context ended,
// or the I/O error.
type OpError struct {
	Op    string        // the call, e.g. "fetch"; "connect" for Dial
	PDU   pduwire.Type  // the request sent (zero for connect)
	Limit time.Duration // for a timeout: Options.Timeout, or what the context's deadline left the exchange
	Err   error

	handshake bool // the handshake rather than a request failed
}

// Error names the call, the request PDU and, for a timeout, the limit.
func (e *OpError) Error() string {
	s := "pmapi: " + e.Op + ": "
	switch {
	case e.handshake:
		s += "handshake"
	case e.PDU != 0:
		s += e.PDU.String() + " exchange"
	default:
		return s + e.Err.Error()
	}
	switch {
	case e.Err == context.DeadlineExceeded:
		return s + " not complete within the context's deadline (" + e.Limit.Round(time.Millisecond).String() + ")"
	case e.Err == os.ErrDeadlineExceeded:
		return s + " not complete within the client timeout (Options.Timeout " + e.Limit.Round(time.Millisecond).String() + ")"
	}
	return s + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *OpError) Unwrap() error { return e.Err }

// closedError is ErrClosed after a failure closed the connection: it
// says which, so that a later call's error still explains itself.
type closedError struct{ cause error }

func (e *closedError) Error() string {
	return "pmapi: client closed by an earlier failure: " + e.cause.Error()
}

func (e *closedError) Unwrap() error { return ErrClosed }
