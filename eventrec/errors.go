package eventrec

import "github.com/perfwire/perfwire/internal/wire"

// ParseError is the error type of every decoding failure in this package:
// the field that failed, its byte offset and one of the kinds below (for
// [ErrLimit], also the count and the limit it broke). The offset is
// relative to the start of the array plus [Options.Base], so a caller
// that passes the array's position in the PDU gets PDU offsets. Use
// errors.Is with a kind, or errors.AsType[*eventrec.ParseError] for the
// offset.
type ParseError = wire.Error

// Error kinds carried by [ParseError] (and by builder errors). All but
// ErrBuild are internal/wire's shared kinds.
var (
	// ErrTruncated: a record header or parameter runs past ea_len, or
	// ea_len runs past the bytes supplied (the value block or the PDU).
	ErrTruncated = &wire.Truncated
	// ErrLength: ea_len below 8 or (strict mode) not a multiple of 4;
	// ep_len below 4 or wrong for a fixed-size type; or, when building,
	// an array that outgrew the 24-bit ea_len.
	ErrLength = &wire.Length
	// ErrType: ea_type is not an event type or does not match the
	// expected type, or a parameter has a type that may not travel in a
	// record (an unknown type, or an event array: arrays do not nest).
	ErrType = &wire.Type
	// ErrCount: a negative record or parameter count, or a record count
	// that cannot fit in the array.
	ErrCount = &wire.Count
	// ErrLimit: a count exceeds the configured [Options] limits; the
	// ParseError carries the count and the limit.
	ErrLimit = &wire.Limit
	// ErrField: er_flags combines MISSED with other flags, or the value
	// set's valfmt is not a pointer format (libpcp's PM_ERR_CONV; event
	// arrays never travel in-situ).
	ErrField = &wire.Field
	// ErrRange: (strict mode) microseconds ≥ 10^6 or nanoseconds ≥ 10^9,
	// or a negative fraction; or, when building, a value that does not
	// fit the record's timestamp fields.
	ErrRange = &wire.Range
	// ErrBuild: the builder was used out of order: a parameter without a
	// record, or a parameter after a missed record.
	ErrBuild = wire.NewKind("eventrec_build", "invalid build sequence")
)

func newError(field string, off int, kind error) error {
	return wire.NewError("eventrec", field, off, kind)
}
