package ltt

import "github.com/perfwire/perfwire/internal/wire"

// ParseError is the error returned for malformed traces and type
// descriptions: the field being decoded, the byte offset inside the block
// (or tracefile, or description) and one of the Err* kinds below, which
// errors.Is matches.
type ParseError = wire.Error

// Kinds of decode and encode failure, matched with errors.Is. Those every
// format shares are internal/wire's, aliased; each has a stable Code for
// the wasm ABI, and no "ltt:" in its message (the ParseError adds it).
var (
	// ErrTruncated: an event or value runs past the end of its block.
	ErrTruncated = wire.ErrTruncated
	// errUnknownEvent: an event id that no facility defines; the walk
	// cannot continue because payloads carry no length.
	errUnknownEvent = wire.NewKind("ltt_unknown_event", "unknown event id")
	// ErrBlockStart: a block does not begin with a block_start event.
	ErrBlockStart = wire.NewKind("ltt_block_start", "block does not start with block_start")
	// ErrBlockEnd: the trailer points at no block_end, or the event walk
	// does not land exactly on it.
	ErrBlockEnd = wire.NewKind("ltt_block_end", "block_end not found where the trailer says")
	// errBlockSize: a block size that cannot hold the block records.
	errBlockSize = wire.NewKind("ltt_block_size", "bad block size")
	// errString: a string without its terminating NUL inside the block.
	errString = wire.NewKind("ltt_string", "unterminated string")
	// errUnionTag: a union tag selects no field.
	errUnionTag = wire.NewKind("ltt_union_tag", "union tag out of range")
	// ErrType: a type description the reader cannot lay out (undefined
	// size for the architecture, missing element, too deep, cyclic).
	ErrType = wire.NewKind("ltt_type", "bad type description")
	// ErrFacility: overlapping facility id ranges, or a facility_load
	// record that matches no facility by name and checksum.
	ErrFacility = wire.NewKind("ltt_facility", "bad facility")
	// ErrLimit: a configured limit was exceeded.
	ErrLimit = wire.ErrLimit
	// errPayload: the writer was given a payload whose size does not
	// match its event type.
	errPayload = wire.NewKind("ltt_payload", "payload does not match the event type")
	// errUnion: the writer was asked for a union outside the opt-in
	// extension (Options.WriteUnions).
	errUnion = wire.NewKind("ltt_union", "unions are outside the core profile")
	// errEventTooLarge: an event cannot fit in an empty block.
	errEventTooLarge = wire.NewKind("ltt_event_too_large", "event larger than a block")
	// errCycles: the writer was given cycles that go backwards.
	errCycles = wire.NewKind("ltt_cycles", "cycles go backwards")
)

// errAt builds a *ParseError for the ltt format.
func errAt(field string, off int, kind error) error {
	return wire.NewError("ltt", field, off, kind)
}
