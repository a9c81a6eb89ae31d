package eventrec

import (
	"errors"

	"github.com/perfwire/perfwire/internal/wire"
)

// ParseError is the error type of every decoding failure in this package:
// the field that failed, its byte offset and a sentinel kind below. The
// offset is relative to the start of the array plus [Options.Base], so a
// caller that passes the array's position in the PDU gets PDU offsets.
// Use errors.Is with a sentinel, or errors.AsType[*eventrec.ParseError]
// for the offset.
type ParseError = wire.Error

// Sentinel kinds carried by [ParseError] (and by builder errors).
var (
	// ErrTruncated: a record header or parameter runs past ea_len, or
	// ea_len runs past the bytes supplied (the value block or the PDU).
	ErrTruncated = errors.New("eventrec: truncated event array")
	// ErrLength: ea_len below 8 or (strict mode) not a multiple of 4; or,
	// when building, an array that outgrew the 24-bit ea_len.
	ErrLength = errors.New("eventrec: bad array length")
	// ErrType: ea_type is not an event type, does not match the expected
	// type, or a parameter has a type that may not travel in a record.
	ErrType = errors.New("eventrec: bad type")
	// ErrNested: a parameter is itself an event array.
	ErrNested = errors.New("eventrec: nested event array")
	// ErrCount: a negative record or parameter count, or a record count
	// that cannot fit in the array.
	ErrCount = errors.New("eventrec: bad count")
	// ErrLimit: a count exceeds the configured [Options] limits.
	ErrLimit = errors.New("eventrec: limit exceeded")
	// ErrParamLen: ep_len below 4 or wrong for a fixed-size type.
	ErrParamLen = errors.New("eventrec: bad parameter length")
	// ErrFlags: MISSED combined with any other flag.
	ErrFlags = errors.New("eventrec: MISSED combined with other flags")
	// ErrTimestamp: (strict mode) microseconds ≥ 10^6 or nanoseconds
	// ≥ 10^9, or a negative fraction; or, when building, a value that
	// does not fit the record's timestamp fields.
	ErrTimestamp = errors.New("eventrec: timestamp out of range")
	// ErrValueFormat: the value set's valfmt is not a pointer format
	// (libpcp's PM_ERR_CONV); event arrays never travel in-situ.
	ErrValueFormat = errors.New("eventrec: event array value is not a pointer")
	// ErrBuild: the builder was used out of order: a parameter without a
	// record, or a parameter after a missed record.
	ErrBuild = errors.New("eventrec: invalid build sequence")
)

func newError(field string, off int, kind error) error {
	return wire.NewError("eventrec", field, off, kind)
}
