package pduwire

import "github.com/perfwire/perfwire/internal/wire"

// ParseError is the error every decoder in this package returns: the
// field that failed, its byte offset from the start of the input (the PDU
// for body decoders, the stream for framers) and one of the sentinel
// kinds below as Err. Use errors.Is to test the kind and
// errors.AsType[*ParseError] to read the offset.
type ParseError = wire.Error

// Error kinds. Each corresponds to a family of rules in the PCP PDU
// specification; libpcp reports all of them as PM_ERR_IPC. Those every
// format shares are internal/wire's, aliased; the messages carry no
// package prefix (the ParseError adds it once), and each kind has a
// stable Code for the wasm ABI.
var (
	// ErrTruncated: a header, field, entry or string runs past the end
	// of the PDU or of the stream.
	ErrTruncated = &wire.Truncated
	// errHeaderLen ("pdu_length"): the header's len word is below 12, or
	// disagrees with the bytes handed to a body decoder. Unexported, as
	// no caller branches on it: its Code names it.
	errHeaderLen = wire.NewKind("pdu_length", "bad PDU length")
	// ErrLimit: len exceeds the configured ceiling.
	ErrLimit = &wire.Limit
	// ErrType: a negative type code, or a PDU of another type than the
	// decoder handles.
	ErrType = &wire.Type
	// ErrLength: len is not the exact size the body's counts require.
	ErrLength = &wire.Length
	// ErrCount: a count is negative, zero where one is required, or
	// larger than the room left in the PDU.
	ErrCount = &wire.Count
	// ErrTrailing: bytes follow the last element where none may.
	ErrTrailing = &wire.Trailing
	// errValueFormat ("pdu_value_format"): a value set's valfmt is not
	// INSITU, DPTR or SPTR. Unexported, as no caller branches on it.
	errValueFormat = wire.NewKind("pdu_value_format", "bad value format")
	// The four kinds below are unexported too, told apart by Code.
	// errValueBlock: a value-block pointer or a block's vlen is out of
	// range, or vlen does not fit the block's type.
	errValueBlock = wire.NewKind("pdu_value_block", "bad value block")
	// errOverlap: two values reference the same or overlapping blocks.
	errOverlap = wire.NewKind("pdu_overlap", "duplicate or overlapping value blocks")
	// errContiguity: value blocks leave gaps or unreferenced bytes.
	errContiguity = wire.NewKind("pdu_contiguity", "value blocks are not contiguous")
	// ErrField: a field holds a value the protocol does not allow (a
	// credential type, a DESC_IDS marker, an offset outside its text).
	ErrField = &wire.Field
	// errEvent: an event-record array inside a value is malformed.
	errEvent = wire.NewKind("pdu_event", "bad event record array")
)

// fail builds a *ParseError for the named field at offset off. It is
// not inlined, and takes its kind as a *wire.Kind, one word: each of its
// calls then passes four words, where an inlined call of wire.NewError
// passes seven (module size; see wasm/size).
//
//go:noinline
func fail(field string, off int, kind *wire.Kind) error {
	return &ParseError{Format: "pduwire", Field: field, Offset: int64(off), Err: kind}
}

// failure is a failing field, its offset and its kind, for decoders
// whose checks all go to one fail call.
type failure struct {
	field string
	off   int
	kind  *wire.Kind
}
