package schema

import "github.com/perfwire/perfwire/internal/wire"

// The ABI's own error kinds, for failures outside the SDK's decoders.
var (
	// ErrBadHandle: a handle that alloc or a session call did not return,
	// or one already freed.
	ErrBadHandle = wire.NewKind("bad_handle", "bad handle")
	// ErrBadInput: an argument the call cannot use (wrong MessagePack
	// shape, a framing or flag value the call does not define).
	ErrBadInput = wire.NewKind("bad_input", "bad argument")
	// ErrBadMode: a session call on a session of another kind (kpi_step
	// on a stream, kpi_feed on a capture).
	ErrBadMode = wire.NewKind("bad_mode", "call does not fit the session's kind")
	// ErrNotBuilt: a call of a format this module was built without
	// (a one-format module), or an op number the ABI does not define.
	ErrNotBuilt = wire.NewKind("not_built", "call not in this module")
	// ErrInternal: a panic caught at the boundary, which is a bug.
	ErrInternal = wire.NewKind("internal", "internal error")
)

// KindUnknown is the code of an error that carries no wire.Kind; the
// SDK's decoders all do, so it marks an I/O or host failure.
const KindUnknown = "unknown"

// ErrorOf turns err into the result's error value; nil stays nil. The
// kind is the stable code of the wire.Kind err wraps, so hosts can switch
// on it whatever the message's wording.
//
// Every error that reaches it is a *wire.Kind or a *wire.Error (the
// SDK's decoders, ABIError), whose Err is a *wire.Kind or an error that
// answers As for one (pduwire's event kind, pcp's extraction kind), so it
// reads them without errors.AsType, whose generic walk through Unwrap and
// As the modules do without (module size). Any other error
// (an I/O error of the CLI's files) is of the unknown kind.
func ErrorOf(err error) *Error {
	if err == nil {
		return nil
	}
	e := &Error{Kind: KindUnknown, Message: err.Error(), Offset: -1}
	if we, ok := err.(*wire.Error); ok {
		e.Format, e.Field, e.Offset = we.Format, we.Field, we.Offset
		err = we.Err
	}
	k, ok := err.(*wire.Kind)
	if a, isAs := err.(interface{ As(any) bool }); isAs {
		ok = a.As(&k)
	}
	if ok {
		e.Kind = k.Code()
	}
	return e
}

// ABIError is an error of one of the ABI's own kinds, with no position.
//
//go:noinline
func ABIError(k *wire.Kind) error { return &wire.Error{Format: "abi", Offset: -1, Err: k} }

// Failure returns the ErrorResult for err; an ABI kind given alone gets
// the "abi" format.
func Failure(err error) *ErrorResult {
	if k, ok := err.(*wire.Kind); ok {
		err = ABIError(k)
	}
	return &ErrorResult{Error: ErrorOf(err)}
}

// fail appends Failure(err)'s MessagePack to b, a call's failure result.
func AppendFailure(b []byte, err error) []byte {
	b, _ = Failure(err).MarshalMsg(b)
	return b
}
