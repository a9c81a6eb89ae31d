package mmv

import (
	"strconv"

	"github.com/perfwire/perfwire/pcp"
)

// Magic is the first four bytes of every MMV file.
const Magic = "MMV\x00"

// Domain is the PMDA domain number of pmdammv; exported pmIDs and
// pmInDoms carry it.
const Domain = 70

// Sizes of the fixed parts of a file, in bytes.
const (
	HeaderSize     = 40
	TOCEntrySize   = 16
	IndomSize      = 32
	InstanceSizeV1 = 80
	InstanceSizeV2 = 24
	MetricSizeV1   = 104
	MetricSizeV2   = 48
	ValueSize      = 32
	StringSize     = 256
	LabelSize      = 256
	NameSizeV1     = 64  // inline v1 names: at most 63 bytes and a NUL
	LabelPayload   = 244 // label text: at most 243 bytes and a NUL
	MaxItem        = 1023
	MaxCluster     = 4095
)

// Section is a TOC entry type.
type Section int32

// Section types as numbered in the TOC.
const (
	SectionIndoms    Section = 1
	SectionInstances Section = 2
	SectionMetrics   Section = 3
	SectionValues    Section = 4
	SectionStrings   Section = 5
	SectionLabels    Section = 6 // version 3 only
)

// Flags are the header flags.
type Flags uint32

// Header flags.
const (
	// FlagNoPrefix exports metric names without the file name.
	FlagNoPrefix Flags = 0x1
	// FlagProcess exports the file only while the writer's pid lives.
	FlagProcess Flags = 0x2
	// FlagSentinel makes special value patterns mean "no value".
	FlagSentinel Flags = 0x4
)

// Type is an MMV metric type code. It matches pcp.Type for 0…6; ELAPSED
// (9) is exported by pmdammv as a 64-bit counter of microseconds.
type Type int32

// Metric types.
const (
	TypeNoSupport Type = -1
	TypeI32       Type = 0
	TypeU32       Type = 1
	TypeI64       Type = 2
	TypeU64       Type = 3
	TypeFloat     Type = 4
	TypeDouble    Type = 5
	TypeString    Type = 6
	TypeElapsed   Type = 9
)

// Valid reports whether pmdammv can export a metric of type t (or, for
// TypeNoSupport, answer for it).
func (t Type) Valid() bool { return t >= TypeNoSupport && t <= TypeString || t == TypeElapsed }

// PCP returns the type pmdammv exports: ELAPSED becomes a 64-bit integer.
func (t Type) PCP() pcp.Type {
	if t == TypeElapsed {
		return pcp.Type64
	}
	return pcp.Type(t)
}

// typeNames are mmvdump's names (PCP 6.0.3) indexed by code + 1.
var typeNames = [...]string{"?", "32-bit int", "32-bit unsigned int", "64-bit int",
	"64-bit unsigned int", "float", "double", "string", "", "", "elapsed"}

// String returns the name mmvdump prints for the type: "32-bit int",
// "elapsed", …, and "?" for TypeNoSupport and unknown codes.
func (t Type) String() string {
	if t.Valid() {
		return typeNames[t+1]
	}
	return "?"
}

// LabelFlags are the flags of a v3 label entry: one level bit plus
// optionally LabelOptional.
type LabelFlags uint32

// Label levels and the optional marker, as stored in a label entry.
const (
	LabelInDom     LabelFlags = 0x04
	LabelCluster   LabelFlags = 0x08
	LabelItem      LabelFlags = 0x10
	LabelInstances LabelFlags = 0x20
	LabelOptional  LabelFlags = 0x80
)

// Level returns the level bit without LabelOptional.
func (f LabelFlags) Level() LabelFlags { return f &^ LabelOptional }

// valid reports whether f is exactly one level bit, optionally with
// LabelOptional.
func (f LabelFlags) valid() bool {
	switch f.Level() {
	case LabelInDom, LabelCluster, LabelItem, LabelInstances:
		return true
	}
	return false
}

// appendInt is strconv.AppendInt in base 10.
func appendInt(b []byte, v int64) []byte { return strconv.AppendInt(b, v, 10) }
