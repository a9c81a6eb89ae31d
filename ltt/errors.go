package ltt

import (
	"errors"

	"github.com/perfwire/perfwire/internal/wire"
)

// ParseError is the error returned for malformed traces and type
// descriptions: the field being decoded, the byte offset inside the block
// (or tracefile, or description) and one of the Err* kinds below, which
// errors.Is matches.
type ParseError = wire.Error

// Kinds of decode and encode failure, matched with errors.Is.
var (
	// ErrTruncated: an event or value runs past the end of its block.
	ErrTruncated = errors.New("ltt: truncated")
	// ErrUnknownEvent: an event id that no facility defines; the walk
	// cannot continue because payloads carry no length.
	ErrUnknownEvent = errors.New("ltt: unknown event id")
	// ErrBlockStart: a block does not begin with a block_start event.
	ErrBlockStart = errors.New("ltt: block does not start with block_start")
	// ErrBlockEnd: the trailer points at no block_end, or the event walk
	// does not land exactly on it.
	ErrBlockEnd = errors.New("ltt: block_end not found where the trailer says")
	// ErrBlockSize: a block size that cannot hold the block records.
	ErrBlockSize = errors.New("ltt: bad block size")
	// ErrString: a string without its terminating NUL inside the block.
	ErrString = errors.New("ltt: unterminated string")
	// ErrUnionTag: a union tag selects no field.
	ErrUnionTag = errors.New("ltt: union tag out of range")
	// ErrType: a type description the reader cannot lay out (undefined
	// size for the architecture, missing element, too deep, cyclic).
	ErrType = errors.New("ltt: bad type description")
	// ErrFacility: overlapping facility id ranges, or a facility_load
	// record that matches no facility by name and checksum.
	ErrFacility = errors.New("ltt: bad facility")
	// ErrLimit: a configured limit was exceeded.
	ErrLimit = errors.New("ltt: limit exceeded")
	// ErrPayload: the writer was given a payload whose size does not
	// match its event type.
	ErrPayload = errors.New("ltt: payload does not match the event type")
	// ErrUnion: the writer was asked for a union outside the opt-in
	// extension (Config.WriteUnions).
	ErrUnion = errors.New("ltt: unions are outside the core profile")
	// ErrEventTooLarge: an event cannot fit in an empty block.
	ErrEventTooLarge = errors.New("ltt: event larger than a block")
	// ErrCycles: the writer was given cycles that go backwards.
	ErrCycles = errors.New("ltt: cycles go backwards")
)

// errAt builds a *ParseError for the ltt format.
func errAt(field string, off int, kind error) error {
	return wire.NewError("ltt", field, off, kind)
}
