package labels

import "github.com/perfwire/perfwire/internal/wire"

// ParseError is the error type of every failing function in this package:
// an alias of the shared [wire.Error], carrying the field that failed, the
// byte offset into the caller's input, one of the kinds below and, for
// [ErrLimit], the offending value and the limit. Use
// errors.Is(err, labels.ErrSyntax) to test the kind and
// errors.AsType[*labels.ParseError](err) to read the offset.
type ParseError = wire.Error

// Error kinds. Parse and the wire decoders wrap exactly one of them in a
// [ParseError]. ErrSyntax, ErrTruncated and ErrLimit are internal/wire's
// shared kinds; the others are this package's own.
var (
	// ErrSyntax: the text is not a JSON object (bad token, trailing
	// comma, trailing text, top-level value that is not an object).
	ErrSyntax = &wire.Syntax
	// ErrTruncated: the text ends before the object is complete.
	ErrTruncated = &wire.Truncated
	// ErrLimit: a length or count is over its limit (labels per set, JSON
	// length, name length); the ParseError carries the value and the
	// limit.
	ErrLimit = &wire.Limit
	// ErrName: a label name breaks the naming rules in force.
	ErrName = wire.NewKind("labels_name", "invalid label name")
	// ErrDuplicate: two labels of one set have the same full name.
	ErrDuplicate = wire.NewKind("labels_duplicate", "duplicate label name")
	// errUnsupportedValue ("labels_value"; no caller branches on it, nor
	// on the next two): an array holds an array or an object, or a
	// builder value has no JSON form (NaN, infinity).
	errUnsupportedValue = wire.NewKind("labels_value", "unsupported label value")
	// errDepth ("labels_depth"): maps and arrays are nested deeper than
	// Limits.MaxDepth.
	errDepth = wire.NewKind("labels_depth", "nesting too deep")
	// errIndex: a received label index does not describe its JSON (span
	// out of bounds, unsorted or duplicate names, overlapping spans, or a
	// mismatch found by strict verification).
	errIndex = wire.NewKind("labels_index", "invalid label index")
)

// errAt builds the ParseError for a failure at byte off of the input.
//
//go:noinline
func errAt(field string, off int, kind error) error {
	return wire.NewError("labels", field, off, kind)
}

// limitAt builds the ErrLimit ParseError for value over limit at byte off.
//
//go:noinline
func limitAt(field string, off, value, limit int) error {
	return wire.NewValueError("labels", field, off, ErrLimit, int64(value), int64(limit))
}
