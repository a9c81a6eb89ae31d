package ltt

import (
	"encoding/binary"
	"math"
)

// AppendUint appends v as an integer or enum of size s in the layout's
// byte order, truncated to the width. An undefined width appends nothing,
// which the writer then reports as the kind "ltt_payload".
func (l Layout) AppendUint(b []byte, s SizeCode, v uint64) []byte {
	return l.appendN(b, l.Arch.IntBytes(s), v)
}

// AppendInt appends v as a signed integer of size s (two's complement,
// truncated to the width).
func (l Layout) AppendInt(b []byte, s SizeCode, v int64) []byte {
	return l.appendN(b, l.Arch.IntBytes(s), uint64(v))
}

// AppendFloat appends v as an IEEE float of size s (4 or 8 bytes; other
// sizes append nothing).
func (l Layout) AppendFloat(b []byte, s SizeCode, v float64) []byte {
	switch l.Arch.FloatBytes(s) {
	case 4:
		return l.appendN(b, 4, uint64(math.Float32bits(float32(v))))
	case 8:
		return l.appendN(b, 8, math.Float64bits(v))
	}
	return b
}

// AppendString appends s and its terminating NUL. s must not contain a
// NUL: the reader would stop there.
func (l Layout) AppendString(b []byte, s []byte) []byte {
	return append(append(b, s...), 0)
}

func (l Layout) appendN(b []byte, n int, v uint64) []byte {
	var o binary.AppendByteOrder = binary.LittleEndian
	if l.BigEndian {
		o = binary.BigEndian
	}
	switch n {
	case 1:
		return append(b, byte(v))
	case 2:
		return o.AppendUint16(b, uint16(v))
	case 4:
		return o.AppendUint32(b, uint32(v))
	case 8:
		return o.AppendUint64(b, v)
	}
	return b
}

// AppendFacilityLoad appends the payload of a facility_load event: the
// facility name, its NUL, then u32 checksum and u32 base id, in the
// document's layout (LTTV's own reader misread it).
func (l Layout) AppendFacilityLoad(b []byte, name string, checksum uint32, base uint16) []byte {
	b = l.AppendString(b, []byte(name))
	b = l.appendN(b, 4, uint64(checksum))
	return l.appendN(b, 4, uint64(base))
}

func (l Layout) appendStamp(b []byte, s Stamp) []byte {
	b = l.appendN(b, 4, uint64(s.Seconds))
	b = l.appendN(b, 4, uint64(s.Nanoseconds))
	b = l.appendN(b, 8, s.Cycles)
	return l.appendN(b, 4, uint64(s.BlockID))
}
