package archive

// The unexported kinds, for the external tests that check which one a
// bad input fails with.
var (
	ErrFrame         = errFrame
	ErrLabelMismatch = errLabelMismatch
)
