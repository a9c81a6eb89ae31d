package dlt

import "github.com/perfwire/perfwire/internal/wire"

// ParseError is the error every decoder in this package returns: the
// field that failed, its byte offset from the start of the input given to
// [NewScanner] or [ConsumeMessage], and one of the Err* kinds below as
// Err, with the value and limit where a number broke one. Use
// errors.Is(err, dlt.ErrTruncated) to test the kind and
// errors.AsType[*dlt.ParseError](err) to read the offset.
type ParseError = wire.Error

// Error kinds. Each is wrapped in a [ParseError] that carries the offset.
// Those every format shares are internal/wire's, aliased (the same values
// in every package); the messages carry no package prefix (the
// ParseError adds it once), and each kind has a stable Code for the wasm
// ABI.
var (
	// ErrTruncated: a header, record or argument runs past the end of the
	// input (or of the payload, for arguments).
	ErrTruncated = &wire.Truncated
	// ErrMagic: the bytes where a storage header ("DLT\x01") or a serial
	// header ("DLS\x01") must start hold something else.
	ErrMagic = &wire.Magic
	// ErrVersion: a DLT v2 storage header ("DLT\x02") or a standard
	// header whose version bits are not 1.
	ErrVersion = &wire.Version
	// ErrLength: the standard header's LEN is smaller than the headers
	// its own flags announce.
	ErrLength = &wire.Length
	// ErrLimit: LEN exceeds [Options.MaxMessageLen] (the error carries
	// both), or an encoder was given a name, unit or value longer than
	// a u16 length allows.
	ErrLimit = &wire.Limit
	// ErrCount: the payload ended before NOAR arguments were decoded.
	ErrCount = &wire.Count
	// ErrTrailing: bytes remain after the NOAR-th argument.
	ErrTrailing = &wire.Trailing
	// ErrType: an argument's type info has no kind bit or several, a
	// length (TYLE) its kind does not allow, FIXP on a non-integer, or is
	// an array/struct (not decoded by this package). Reserved bits 18-31
	// are ignored, as dlt-convert does.
	ErrType = &wire.Type
	// ErrNotVerbose: arguments were requested from a non-verbose message.
	ErrNotVerbose = wire.NewKind("dlt_not_verbose", "message is not verbose")
)

// errAt builds a ParseError; kept tiny so failure paths stay one line.
//
//go:noinline
func errAt(field string, off int, kind error) error {
	return wire.NewError("dlt", field, off, kind)
}
