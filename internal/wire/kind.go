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
	ErrTruncated = NewKind("truncated", "truncated")
	// ErrLimit: a length or count is above a configured limit.
	ErrLimit = NewKind("limit", "over the limit")
	// ErrLength: a length field disagrees with the bytes it covers or with
	// what its contents need.
	ErrLength = NewKind("length", "bad length")
	// ErrCount: a count is negative, zero where one is required, or larger
	// than the bytes that remain could hold.
	ErrCount = NewKind("count", "bad count")
	// ErrTrailing: bytes follow the last element where none may.
	ErrTrailing = NewKind("trailing", "trailing bytes")
	// ErrMagic: the input does not start with the format's magic.
	ErrMagic = NewKind("magic", "bad magic")
	// ErrVersion: a version this package does not read.
	ErrVersion = NewKind("version", "unsupported version")
	// ErrType: a type code the format does not define, or one that the
	// call does not handle.
	ErrType = NewKind("type", "bad type")
	// ErrSyntax: text that does not follow the format's grammar.
	ErrSyntax = NewKind("syntax", "syntax error")
	// ErrRange: a number outside the range its field allows.
	ErrRange = NewKind("range", "value out of range")
	// ErrField: a field holds a value the format does not allow.
	ErrField = NewKind("field", "bad field value")
)
