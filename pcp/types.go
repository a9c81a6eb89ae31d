package pcp

// Type is a PM_TYPE_* value type code.
type Type int32

// Value types, as numbered on the wire.
const (
	TypeNoSupport       Type = -1
	Type32              Type = 0
	TypeU32             Type = 1
	Type64              Type = 2
	TypeU64             Type = 3
	TypeFloat           Type = 4
	TypeDouble          Type = 5
	TypeString          Type = 6
	TypeAggregate       Type = 7
	TypeAggregateStatic Type = 8
	TypeEvent           Type = 9
	TypeHighResEvent    Type = 10
	TypeUnknown         Type = 255 // only in value-block headers
)

// Sem is a PM_SEM_* semantics code.
type Sem int32

// Semantics of a metric's values.
const (
	SemCounter  Sem = 1
	SemInstant  Sem = 3
	SemDiscrete Sem = 4
)

// Units is the pmUnits word as it travels, read big-endian: bits 31–28
// dimSpace, 27–24 dimTime, 23–20 dimCount (signed 4-bit), 19–16
// scaleSpace, 15–12 scaleTime (unsigned), 11–8 scaleCount (signed), and
// bits 7–0 the extra unit and scale of PCP 7.2 (zero from 6.x peers).
type Units uint32

// Space scales (powers of 1024 bytes).
const (
	SpaceByte = iota
	SpaceKByte
	SpaceMByte
	SpaceGByte
	SpaceTByte
	SpacePByte
	SpaceEByte
	SpaceZByte
	SpaceYByte
)

// Time scales.
const (
	TimeNSec = iota
	TimeUSec
	TimeMSec
	TimeSec
	TimeMin
	TimeHour
)

// NewUnits packs dimensions and scales; each dimension and scaleCount is
// a signed 4-bit value, the other scales unsigned 4-bit.
func NewUnits(dimSpace, dimTime, dimCount int, scaleSpace, scaleTime uint, scaleCount int) Units {
	return Units(uint32(dimSpace&0xf)<<28 | uint32(dimTime&0xf)<<24 | uint32(dimCount&0xf)<<20 |
		uint32(scaleSpace&0xf)<<16 | uint32(scaleTime&0xf)<<12 | uint32(scaleCount&0xf)<<8)
}

// sext4 sign-extends a 4-bit field.
func sext4(v uint32) int { return int(int32(v<<28) >> 28) }

// DimSpace returns the space dimension (−8…7).
func (u Units) DimSpace() int { return sext4(uint32(u) >> 28) }

// DimTime returns the time dimension.
func (u Units) DimTime() int { return sext4(uint32(u) >> 24) }

// DimCount returns the count dimension.
func (u Units) DimCount() int { return sext4(uint32(u) >> 20) }

// ScaleSpace returns the space scale (SpaceByte…SpaceYByte).
func (u Units) ScaleSpace() uint { return uint(u>>16) & 0xf }

// ScaleTime returns the time scale (TimeNSec…TimeHour).
func (u Units) ScaleTime() uint { return uint(u>>12) & 0xf }

// ScaleCount returns the count scale, a power of ten.
func (u Units) ScaleCount() int { return sext4(uint32(u) >> 8) }
