package dlt

// Type info bits of a verbose argument (the 32-bit word before each one).
const (
	TypeLenMask  = 0x0000000F // TYLE: 1=8, 2=16, 3=32, 4=64, 5=128 bit
	TypeBool     = 0x00000010 // BOOL
	TypeSigned   = 0x00000020 // SINT
	TypeUnsigned = 0x00000040 // UINT
	TypeFloat    = 0x00000080 // FLOA
	TypeArray    = 0x00000100 // ARAY (not decoded)
	TypeString   = 0x00000200 // STRG
	TypeRaw      = 0x00000400 // RAWD
	TypeVarInfo  = 0x00000800 // VARI: name (and unit for numbers) present
	TypeFixed    = 0x00001000 // FIXP: quantisation and offset present
	TypeTrace    = 0x00002000 // TRAI
	TypeStruct   = 0x00004000 // STRU (not decoded)
	TypeCodeMask = 0x00038000 // SCOD
	// Bits 18-31 are reserved. dlt-convert ignores them (checked by the
	// conformance test), and so does this package.

	typeCodeShift = 15
	typeKindBits  = TypeBool | TypeSigned | TypeUnsigned | TypeFloat | TypeArray |
		TypeString | TypeRaw | TypeTrace | TypeStruct
)

// Kind is what an argument holds, derived from its type info.
type Kind uint8

// Argument kinds.
const (
	KindInvalid Kind = iota
	KindBool
	KindSigned
	KindUnsigned
	KindFloat
	KindString
	KindRaw
	KindTrace
)

var kindNames = [...]string{"invalid", "bool", "sint", "uint", "float", "string", "raw", "trace"}

// String names the kind ("bool", "sint", "uint", "float", "string", "raw", "trace").
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return kindNames[0]
}

// Coding is the SCOD field: how a string is encoded or how an unsigned
// integer is meant to be printed.
type Coding uint8

// Codings.
const (
	CodingASCII Coding = 0
	CodingUTF8  Coding = 1
	CodingHex   Coding = 2
	CodingBin   Coding = 3
)

// kindOf maps exactly one kind bit to a Kind; anything else (no bit,
// several bits, ARAY, STRU) is KindInvalid.
func kindOf(info uint32) Kind {
	switch info & typeKindBits {
	case TypeBool:
		return KindBool
	case TypeSigned:
		return KindSigned
	case TypeUnsigned:
		return KindUnsigned
	case TypeFloat:
		return KindFloat
	case TypeString:
		return KindString
	case TypeRaw:
		return KindRaw
	case TypeTrace:
		return KindTrace
	}
	return KindInvalid
}

// valueSize returns the value's byte size for fixed-size kinds (from
// TYLE), 0 for length-prefixed kinds, and -1 when the combination of kind
// and TYLE is not one this package decodes.
func valueSize(k Kind, info uint32) int {
	tyle := info & TypeLenMask
	switch k {
	case KindBool:
		if tyle != 1 {
			return -1
		}
		return 1
	case KindSigned, KindUnsigned:
		if tyle < 1 || tyle > 5 {
			return -1
		}
		return 1 << (tyle - 1)
	case KindFloat:
		if tyle < 2 || tyle > 5 {
			return -1
		}
		return 1 << (tyle - 1)
	case KindString, KindRaw, KindTrace:
		return 0
	}
	return -1
}
