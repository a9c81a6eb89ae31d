package pmapi

import (
	"errors"

	"github.com/perfwire/perfwire/pcp"
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
