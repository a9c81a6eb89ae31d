package eventdefs

// The unexported kinds, for the external tests that check which one a
// bad input fails with.
var (
	ErrUndefined = errUndefined
	ErrCycle     = errCycle
	ErrDepth     = errDepth
	ErrAttribute = errAttribute
)
