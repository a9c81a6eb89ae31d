package ltt

// The unexported kinds, for the external tests that check which one a
// bad input fails with.
var (
	ErrUnknownEvent  = errUnknownEvent
	ErrBlockSize     = errBlockSize
	ErrString        = errString
	ErrUnionTag      = errUnionTag
	ErrPayload       = errPayload
	ErrUnion         = errUnion
	ErrEventTooLarge = errEventTooLarge
	ErrCycles        = errCycles
)
