package wire

import "strconv"

// Error is the decode error of every perfwire format: which format and
// field failed, at which byte offset, and why. Err is one of the
// package's sentinel kinds, so callers test with errors.Is and read the
// details with errors.As. It is built only on failure paths.
type Error struct {
	Format string // "pcp", "pduwire", "dlt", "mmv", ...
	Field  string // the field or structure being decoded, e.g. "RESULT.numpmid"
	Offset int64  // byte offset of the failing field from the start of the input
	Err    error  // the kind: a sentinel of the format's package
}

// Errorf-free formatting keeps fmt out of the wasm build.
func (e *Error) Error() string {
	b := make([]byte, 0, 64)
	b = append(b, e.Format...)
	b = append(b, ": "...)
	if e.Field != "" {
		b = append(b, e.Field...)
		b = append(b, ": "...)
	}
	if e.Err != nil {
		b = append(b, e.Err.Error()...)
	} else {
		b = append(b, "malformed input"...)
	}
	b = append(b, " at offset "...)
	b = strconv.AppendInt(b, e.Offset, 10)
	return string(b)
}

// Unwrap returns the kind, so errors.Is(err, ErrTruncated) works.
func (e *Error) Unwrap() error { return e.Err }

// NewError builds an *Error; it exists so that failure paths stay one line.
func NewError(format, field string, off int, kind error) error {
	return &Error{Format: format, Field: field, Offset: int64(off), Err: kind}
}
