package dlt

import (
	"errors"

	"github.com/perfwire/perfwire/internal/wire"
)

// ParseError is the error every decoder in this package returns: the
// field that failed, its byte offset from the start of the input given to
// [NewScanner] or [ConsumeMessage], and one of the Err* kinds below as
// Err. Use errors.Is(err, dlt.ErrTruncated) to test the kind and
// errors.AsType[*dlt.ParseError](err) to read the offset.
type ParseError = wire.Error

// Error kinds. Each is wrapped in a [ParseError] that carries the offset.
var (
	// ErrTruncated: a header, record or argument runs past the end of the
	// input (or of the payload, for arguments).
	ErrTruncated = errors.New("dlt: truncated message")
	// ErrBadPattern: the bytes where a storage header ("DLT\x01") or a
	// serial header ("DLS\x01") must start hold something else.
	ErrBadPattern = errors.New("dlt: bad header pattern")
	// ErrUnsupportedVersion: a DLT v2 storage header ("DLT\x02") or a
	// standard header whose version bits are not 1.
	ErrUnsupportedVersion = errors.New("dlt: unsupported version")
	// ErrBadLength: the standard header's LEN is smaller than the headers
	// its own flags announce.
	ErrBadLength = errors.New("dlt: message length smaller than its headers")
	// ErrLimit: LEN exceeds [Options.MaxMessageLen].
	ErrLimit = errors.New("dlt: message exceeds the configured limit")
	// ErrNotVerbose: arguments were requested from a non-verbose message.
	ErrNotVerbose = errors.New("dlt: message is not verbose")
	// ErrArgCount: the payload ended before NOAR arguments were decoded.
	ErrArgCount = errors.New("dlt: fewer arguments than NOAR")
	// ErrTrailingBytes: bytes remain after the NOAR-th argument.
	ErrTrailingBytes = errors.New("dlt: bytes left after the last argument")
	// ErrUnsupportedType: an argument's type info has no kind bit or
	// several, a length (TYLE) its kind does not allow, FIXP on a
	// non-integer, or is an array/struct (not decoded by this package).
	// Reserved bits 18-31 are ignored, as dlt-convert does.
	ErrUnsupportedType = errors.New("dlt: unsupported argument type")
)

// errAt builds a ParseError; kept tiny so failure paths stay one line.
func errAt(field string, off int, kind error) error {
	return wire.NewError("dlt", field, off, kind)
}
