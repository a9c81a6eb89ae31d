package pcp

var typeNames = [...]string{
	"32", "U32", "64", "U64", "FLOAT", "DOUBLE", "STRING",
	"AGGREGATE", "AGGREGATE_STATIC", "EVENT", "HIGHRES_EVENT",
}

// String returns the name libpcp 6.0.3's pmTypeStr gives the type: "32",
// "U32", "64", "U64", "FLOAT", "DOUBLE", "STRING", "AGGREGATE",
// "AGGREGATE_STATIC", "EVENT", "HIGHRES_EVENT", "NO_SUPPORT", "UNKNOWN",
// and "???" for any other code.
func (t Type) String() string {
	switch {
	case t >= 0 && int(t) < len(typeNames):
		return typeNames[t]
	case t == TypeNoSupport:
		return "NO_SUPPORT"
	case t == TypeUnknown:
		return "UNKNOWN"
	}
	return "???"
}

// Size returns the number of bytes a value of a fixed-size type occupies
// (4 for 32, U32 and FLOAT; 8 for 64, U64 and DOUBLE) and 0 for every
// other type.
func (t Type) Size() int {
	switch t {
	case Type32, TypeU32, TypeFloat:
		return 4
	case Type64, TypeU64, TypeDouble:
		return 8
	}
	return 0
}

// String returns the name libpcp 6.0.3's pmSemStr gives the semantics:
// "counter", "instant", "discrete", or "???" for any other code
// (including the retired rate semantics, 2).
func (s Sem) String() string {
	switch s {
	case SemCounter:
		return "counter"
	case SemInstant:
		return "instant"
	case SemDiscrete:
		return "discrete"
	}
	return "???"
}
