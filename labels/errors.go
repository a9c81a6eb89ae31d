package labels

import (
	"errors"

	"github.com/perfwire/perfwire/internal/wire"
)

// ParseError is the error type of every failing function in this package:
// an alias of the shared [wire.Error], carrying the field that failed, the
// byte offset into the caller's input and one of the sentinel kinds below.
// Use errors.Is(err, labels.ErrSyntax) to test the kind and
// errors.AsType[*labels.ParseError](err) to read the offset.
type ParseError = wire.Error

// Sentinel error kinds. Parse and the wire decoders wrap exactly one of
// them in a [ParseError].
var (
	// ErrSyntax: the text is not a JSON object (bad token, trailing
	// comma, trailing text, top-level value that is not an object).
	ErrSyntax = errors.New("labels: JSON syntax error")
	// ErrTruncated: the text ends before the object is complete.
	ErrTruncated = errors.New("labels: truncated JSON")
	// ErrName: a label name breaks the naming rules in force.
	ErrName = errors.New("labels: invalid label name")
	// ErrDuplicate: two labels of one set have the same full name.
	ErrDuplicate = errors.New("labels: duplicate label name")
	// ErrTooBig: a limit is exceeded (labels per set, JSON length, name
	// length).
	ErrTooBig = errors.New("labels: label set too big")
	// ErrUnsupportedValue: an array holds an array or an object, or a
	// builder value has no JSON form (NaN, infinity).
	ErrUnsupportedValue = errors.New("labels: unsupported label value")
	// ErrDepth: maps are nested deeper than Limits.MaxDepth.
	ErrDepth = errors.New("labels: nesting too deep")
	// ErrIndex: a received label index does not describe its JSON (span
	// out of bounds, unsorted or duplicate names, overlapping spans, or a
	// mismatch found by strict verification).
	ErrIndex = errors.New("labels: invalid label index")
)

// errAt builds the ParseError for a failure at byte off of the input.
func errAt(field string, off int, kind error) error {
	return wire.NewError("labels", field, off, kind)
}
