package abi

import (
	"errors"

	"github.com/perfwire/perfwire/internal/wire"
)

// The ABI's own error kinds, for failures outside the SDK's decoders.
var (
	// ErrBadHandle: a handle that alloc or a session call did not return,
	// or one already freed.
	ErrBadHandle = errors.New("abi: bad handle")
	// ErrBadInput: an argument the call cannot use (wrong MessagePack
	// shape, a length larger than its buffer).
	ErrBadInput = errors.New("abi: bad input")
	// ErrLimit: a request larger than the module accepts.
	ErrLimit = errors.New("abi: limit")
)

// errorOf turns err into the result's error value; nil stays nil. The
// kind is the innermost sentinel's text, so hosts can switch on it.
func errorOf(err error) *Error {
	if err == nil {
		return nil
	}
	e := &Error{Kind: err.Error(), Message: err.Error(), Offset: -1}
	if we, ok := errors.AsType[*wire.Error](err); ok {
		e.Format, e.Field, e.Offset = we.Format, we.Field, we.Offset
		if we.Err != nil {
			e.Kind = we.Err.Error()
		}
	}
	return e
}

// Failure returns the ErrorResult for err.
func Failure(err error) *ErrorResult { return &ErrorResult{Error: errorOf(err)} }
