package pduwire

import (
	"errors"

	"github.com/perfwire/perfwire/internal/wire"
)

// ParseError is the error every decoder in this package returns: the
// field that failed, its byte offset from the start of the input (the PDU
// for body decoders, the stream for framers) and one of the sentinel
// kinds below as Err. Use errors.Is to test the kind and
// errors.AsType[*ParseError] to read the offset.
type ParseError = wire.Error

// Sentinel error kinds. Each corresponds to a family of rules in the PCP
// PDU specification; libpcp reports all of them as PM_ERR_IPC.
var (
	// ErrTruncated: a header, field, entry or string runs past the end
	// of the PDU or of the stream.
	ErrTruncated = errors.New("pduwire: truncated PDU")
	// ErrHeaderLen: the header's len word is below 12, or disagrees with
	// the bytes handed to a body decoder.
	ErrHeaderLen = errors.New("pduwire: bad PDU length")
	// ErrLimit: len exceeds the configured ceiling.
	ErrLimit = errors.New("pduwire: PDU length over the limit")
	// ErrType: a negative type code, or a PDU of another type than the
	// decoder handles.
	ErrType = errors.New("pduwire: bad PDU type")
	// ErrLength: len is not the exact size the body's counts require.
	ErrLength = errors.New("pduwire: PDU length does not match its contents")
	// ErrCount: a count is negative, zero where one is required, or
	// larger than the room left in the PDU.
	ErrCount = errors.New("pduwire: bad count")
	// ErrTrailing: bytes follow the last element where none may.
	ErrTrailing = errors.New("pduwire: trailing bytes after the last element")
	// ErrValueFormat: a value set's valfmt is not INSITU, DPTR or SPTR.
	ErrValueFormat = errors.New("pduwire: bad value format")
	// ErrValueBlock: a value-block pointer or a block's vlen is out of
	// range, or vlen does not fit the block's type.
	ErrValueBlock = errors.New("pduwire: bad value block")
	// ErrOverlap: two values reference the same or overlapping blocks.
	ErrOverlap = errors.New("pduwire: duplicate or overlapping value blocks")
	// ErrContiguity: value blocks leave gaps or unreferenced bytes.
	ErrContiguity = errors.New("pduwire: value blocks are not contiguous")
	// ErrField: a field holds a value the protocol does not allow (a
	// credential type, a DESC_IDS marker, an offset outside its text).
	ErrField = errors.New("pduwire: bad field value")
	// ErrEvent: an event-record array inside a value is malformed.
	ErrEvent = errors.New("pduwire: bad event record array")
)

// fail builds a *ParseError for the named field at offset off.
func fail(field string, off int, kind error) error {
	return wire.NewError("pduwire", field, off, kind)
}
