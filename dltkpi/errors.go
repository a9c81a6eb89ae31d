package dltkpi

import "github.com/perfwire/perfwire/internal/wire"

// ParseError is the error type of every failed parse in this package: it
// names the field and the byte offset (from the start of the payload or
// of the dataset) and wraps one of the Err* kinds below, so callers test
// with errors.Is and read the offset with errors.AsType[*ParseError].
type ParseError = wire.Error

// format is the Format field of every ParseError built here.
const format = "dltkpi"

// Error kinds. Each failure wraps exactly one of them. They are
// internal/wire's shared kinds, aliased (the same values in every
// package); the messages carry no package prefix (the ParseError adds it
// once), and each kind has a stable Code for the wasm ABI. [ErrNotKPI]
// is this package's own.
var (
	// ErrTruncated: an argument's header or bytes run past the payload.
	ErrTruncated = &wire.Truncated
	// ErrType: an argument is not a DLT string (dlt-kpi only writes
	// strings), or the identifier is not NEW, STP, ACT, CHK or IRQ.
	ErrType = &wire.Type
	// ErrCount: the payload holds no argument, or a data message holds
	// the identifier and nothing else.
	ErrCount = &wire.Count
	// ErrLimit: the payload has more arguments than
	// Parser.MaxArguments, or an encoder was given a dataset that can
	// never fit one message.
	ErrLimit = &wire.Limit
	// ErrSyntax: a dataset does not match its identifier's grammar.
	ErrSyntax = &wire.Syntax
	// ErrRange: a number in a dataset does not fit its C type.
	ErrRange = &wire.Range
)

// newError builds the package's ParseError: one call at each failure
// path, not inlined.
//
//go:noinline
func newError(field string, off int, kind error) error {
	return wire.NewError(format, field, off, kind)
}
