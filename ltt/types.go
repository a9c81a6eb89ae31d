package ltt

// SizeCode is a declared integer or float width: an exact byte count or a
// C type whose width depends on the traced machine's [Arch]. Its numeric
// value is the size code the facility checksum hashes (0–6).
type SizeCode uint8

// The seven size codes of the eventdefs dialect, in checksum order.
const (
	Size1      SizeCode = iota // 1 byte
	Size2                      // 2 bytes
	Size4                      // 4 bytes
	Size8                      // 8 bytes
	SizeShort                  // C short: 2 bytes (pinned; LTTV used the reading host's)
	SizeMedium                 // C int: 2, 4 or 8 bytes by Arch
	SizeLong                   // C long: 4 or 8 bytes by Arch
)

var sizeNames = [...]string{"1", "2", "4", "8", "short", "medium", "long"}

// String returns the size as written in an eventdefs file.
func (s SizeCode) String() string {
	if int(s) < len(sizeNames) {
		return sizeNames[s]
	}
	return "invalid"
}

// Arch is the data model of the traced machine, from system.xml's
// arch_size; it fixes the width of medium and long.
type Arch uint8

// Data models accepted in system.xml.
const (
	ArchUnknown Arch = iota // medium and long are undefined
	LP32
	ILP32
	LP64
	ILP64
)

var archNames = [...]string{"UNKNOWN", "LP32", "ILP32", "LP64", "ILP64"}

// String returns the arch_size spelling.
func (a Arch) String() string {
	if int(a) < len(archNames) {
		return archNames[a]
	}
	return "invalid"
}

// ParseArch maps an arch_size attribute value to an Arch.
func ParseArch(s string) (Arch, bool) {
	for i, n := range archNames {
		if n == s {
			return Arch(i), true
		}
	}
	return 0, false
}

// IntBytes is the width in bytes of an integer or enum of size s, or 0
// when s is undefined for the data model.
func (a Arch) IntBytes(s SizeCode) int {
	switch s {
	case Size1:
		return 1
	case Size2, SizeShort:
		return 2
	case Size4:
		return 4
	case Size8:
		return 8
	case SizeMedium:
		switch a {
		case LP32:
			return 2
		case ILP32, LP64:
			return 4
		case ILP64:
			return 8
		}
	case SizeLong:
		switch a {
		case LP32, ILP32:
			return 4
		case LP64, ILP64:
			return 8
		}
	}
	return 0
}

// FloatBytes is the width of a float of size s: 4 for 4 and medium, 8 for
// 8 and long, 0 (unusable) otherwise.
func (a Arch) FloatBytes(s SizeCode) int {
	switch s {
	case Size4, SizeMedium:
		return 4
	case Size8, SizeLong:
		return 8
	}
	return 0
}

// Kind is the class of a [Type].
type Kind uint8

// Type classes of the eventdefs dialect. Typerefs do not appear: they are
// expanded to the named struct when a description is parsed.
const (
	KindInvalid Kind = iota
	KindInt
	KindUint
	KindFloat
	KindString
	KindEnum
	KindArray
	KindSequence
	KindStruct
	KindUnion
)

var kindNames = [...]string{"invalid", "int", "uint", "float", "string", "enum", "array", "sequence", "struct", "union"}

// String returns the dialect's element name for k.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// Type describes how one value is laid out. Types are built by the
// eventdefs package or in code, and are read-only once given to
// [NewDecoder]; they may be shared between events (that is what a typeref
// is), but must not contain cycles.
type Type struct {
	Kind Kind
	// Size is the width of int, uint, float and enum values, the width of
	// a sequence's element count, and the width of a union's tag.
	Size SizeCode
	// Format is the format= attribute as written ("" when absent).
	Format string
	// Count is an array's element count.
	Count uint32
	// Elem is the element type of arrays and sequences.
	Elem *Type
	// Fields are the members of a struct or the alternatives of a union.
	Fields []Field
	// Labels are an enum's names.
	Labels []Label
}

// Field is a named member of a struct or union.
type Field struct {
	Name string
	Type *Type
}

// Label is one enum name; Value is the value= attribute as written, ""
// when absent.
type Label struct {
	Name  string
	Value string
}

// EventDef is one event of a facility: a name and an optional payload
// type (nil or a struct).
type EventDef struct {
	Name        string
	Description string
	Type        *Type
}

// Facility is a named, ordered list of events. An event's id is Base plus
// its index in Events.
type Facility struct {
	Name        string
	Description string
	Events      []EventDef
	// Base is the id of Events[0]: 0 unless a facility_load record in
	// control/facilities says otherwise.
	Base uint16
}
