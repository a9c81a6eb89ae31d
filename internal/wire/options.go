package wire

// Number is the type of an options field that has a default: a count, a
// length or a limit.
type Number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Default returns v, or def when v is zero or negative. Every format
// package fills its Options' zero fields with it, so that "zero means the
// default" is one rule, applied field by field, everywhere.
func Default[T Number](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}
