package pduwire

// The unexported kinds, for the external tests that check which one a
// bad input fails with.
var (
	ErrHeaderLen   = errHeaderLen
	ErrValueFormat = errValueFormat
	ErrValueBlock  = errValueBlock
	ErrOverlap     = errOverlap
	ErrContiguity  = errContiguity
	ErrEvent       = errEvent
)
