package labels

// The unexported kinds, for the external tests that check which one a
// bad input fails with.
var (
	ErrIndex = errIndex
)
