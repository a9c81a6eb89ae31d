package wire

// Kind is an error kind: what went wrong, without where. Every decoder
// error wraps exactly one Kind, so errors.Is(err, pkg.ErrTruncated) is the
// way to test for one. A Kind has a stable Code that hosts of the wasm
// plugin can switch on, and a short message with no package prefix: the
// *Error that carries it adds the format once.
//
// Kinds are compared by identity. Packages re-export the shared kinds
// below as aliases (var ErrTruncated = wire.ErrTruncated), so the same
// value answers for every format; kinds that only one format has are made
// with NewKind in that package.
type Kind struct {
	_    [0]func() // not comparable: no equality function in the wasm build
	code string
	msg  string
}

// NewKind returns a new kind. code is a short lower_snake_case identifier,
// unique across the module, that never changes once released; msg says
// what is wrong in a few words.
func NewKind(code, msg string) *Kind { return &Kind{code: code, msg: msg} }

// Error returns the kind's message.
func (k *Kind) Error() string { return k.msg }

// Code returns the kind's stable identifier.
func (k *Kind) Code() string { return k.code }

// The kinds shared by every format. A package adds its own only for a
// failure that none of these names.
var (
	// ErrTruncated: the input ends inside a header, field, element or
	// string.
	ErrTruncated = &Truncated
	// ErrLimit: a length or count is above a configured limit.
	ErrLimit = &Limit
	// ErrLength: a length field disagrees with the bytes it covers or with
	// what its contents need.
	ErrLength = &Length
	// ErrCount: a count is negative, zero where one is required, or larger
	// than the bytes that remain could hold.
	ErrCount = &Count
	// ErrTrailing: bytes follow the last element where none may.
	ErrTrailing = &Trailing
	// ErrMagic: the input does not start with the format's magic.
	ErrMagic = &Magic
	// ErrVersion: a version this package does not read.
	ErrVersion = &Version
	// ErrType: a type code the format does not define, or one that the
	// call does not handle.
	ErrType = &Type
	// ErrSyntax: text that does not follow the format's grammar.
	ErrSyntax = &Syntax
	// ErrRange: a number outside the range its field allows.
	ErrRange = &Range
	// ErrField: a field holds a value the format does not allow.
	ErrField = &Field
)

// The shared kinds as values, which the Err variables above point at. A
// package aliases a shared kind by its address, var ErrTruncated =
// &wire.Truncated: that is static data, where copying the variable
// (= wire.ErrTruncated) costs init code in every package that does it.
// Never assign to these.
var (
	Truncated = Kind{code: "truncated", msg: "truncated"}
	Limit     = Kind{code: "limit", msg: "over the limit"}
	Length    = Kind{code: "length", msg: "bad length"}
	Count     = Kind{code: "count", msg: "bad count"}
	Trailing  = Kind{code: "trailing", msg: "trailing bytes"}
	Magic     = Kind{code: "magic", msg: "bad magic"}
	Version   = Kind{code: "version", msg: "unsupported version"}
	Type      = Kind{code: "type", msg: "bad type"}
	Syntax    = Kind{code: "syntax", msg: "syntax error"}
	Range     = Kind{code: "range", msg: "value out of range"}
	Field     = Kind{code: "field", msg: "bad field value"}
)
