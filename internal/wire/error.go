package wire

import (
	"errors"
	"strconv"
)

// Error is the decode error of every perfwire format: which format and
// field failed, at which byte offset, and why. Err is a [Kind] (shared,
// or one of the package's own), so callers test with errors.Is and read
// the details with errors.As. It is built only on failure paths.
//
// Its text names the format once, then what is known, in this order:
//
//	FILE: FORMAT: FIELD: KIND (value V, limit L) at offset N
//
// File, Field, the value and the limit are left out when unknown.
type Error struct {
	_      [0]func() // not comparable: no equality function in the wasm build
	File   string    // the file the input came from, when a file-level reader knows it
	Format string    // "pcp", "pduwire", "dlt", "mmv", ...
	Field  string    // the field or structure being decoded, e.g. "RESULT.numpmid"
	Offset int64     // byte offset of the failing field from the start of the input
	Err    error     // the kind: a *Kind, shared or the package's own

	// Value and Limit, when HasValue and HasLimit say they are set, are the
	// offending number and the limit it broke.
	Value, Limit       int64
	HasValue, HasLimit bool
}

// Error formats the message without fmt, which keeps fmt out of the wasm
// build, and with few calls, which keeps it small there: the texts and
// the numbers are written by one loop each.
func (e *Error) Error() string {
	kind := "malformed input"
	if e.Err != nil {
		kind = e.Err.Error()
	}
	b := make([]byte, 0, 96)
	// File and Field are left out when empty, the format and the kind
	// never.
	for i, s := range [...]string{e.File, e.Format, e.Field, kind} {
		if s != "" || i&1 != 0 {
			b = append(b, s...)
			if i < 3 {
				b = append(b, ": "...)
			}
		}
	}
	// Then the value, the limit and the offset, each after its text.
	pre := [...]string{" (value ", " (limit ", " at offset "}
	if e.HasValue {
		pre[1] = ", limit "
	}
	if e.HasValue || e.HasLimit {
		pre[2] = ") at offset "
	}
	has := [...]bool{e.HasValue, e.HasLimit, true}
	for i, n := range [...]int64{e.Value, e.Limit, e.Offset} {
		if has[i] {
			b = append(b, pre[i]...)
			b = strconv.AppendInt(b, n, 10)
		}
	}
	return string(b)
}

// Unwrap returns the kind, so errors.Is(err, ErrTruncated) works.
func (e *Error) Unwrap() error { return e.Err }

// Code returns the stable code of the error's kind, or "" when the kind
// is not a [Kind].
func (e *Error) Code() string {
	if k, ok := errors.AsType[*Kind](e.Err); ok {
		return k.Code()
	}
	return ""
}

// NewError builds an *Error; it exists so that failure paths stay one line.
//
//go:noinline
func NewError(format, field string, off int, kind error) error {
	return &Error{Format: format, Field: field, Offset: int64(off), Err: kind}
}

// NewValueError is NewError for a number that broke a limit: the message
// then names both.
//
//go:noinline
func NewValueError(format, field string, off int, kind error, value, limit int64) error {
	return &Error{Format: format, Field: field, Offset: int64(off), Err: kind,
		Value: value, Limit: limit, HasValue: true, HasLimit: true}
}

// InFile returns err with File set to name when err is an *Error without
// a file, so a file-level reader can say which file its decoder failed on;
// any other error is returned as it is.
func InFile(err error, name string) error {
	if e, ok := errors.AsType[*Error](err); ok && e.File == "" {
		c := *e
		c.File = name
		return &c
	}
	return err
}
