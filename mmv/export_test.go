package mmv

// The unexported kinds, for the external tests that check which one a
// bad input fails with.
var (
	ErrTOC       = errTOC
	ErrMissing   = errMissing
	ErrBounds    = errBounds
	ErrOffset    = errOffset
	ErrString    = errString
	ErrItem      = errItem
	ErrInDom     = errInDom
	ErrInstance  = errInstance
	ErrLabel     = errLabel
	ErrName      = errName
	ErrValueType = errValueType
)
