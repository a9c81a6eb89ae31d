package dlt

import "encoding/binary"

// Byte-order reads, written out so that the hot paths need no interface
// calls. Callers check lengths first; like encoding/binary these panic
// on short input. The API names byte orders as binary.ByteOrder values
// (only the interface and its two values are used: nothing reflective).

func be16(b []byte) uint16 { _ = b[1]; return uint16(b[0])<<8 | uint16(b[1]) }

func le16(b []byte) uint16 { _ = b[1]; return uint16(b[1])<<8 | uint16(b[0]) }

func be32(b []byte) uint32 {
	_ = b[3]
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

func le32(b []byte) uint32 {
	_ = b[3]
	return uint32(b[3])<<24 | uint32(b[2])<<16 | uint32(b[1])<<8 | uint32(b[0])
}

func be64(b []byte) uint64 { _ = b[7]; return uint64(be32(b))<<32 | uint64(be32(b[4:])) }

func le64(b []byte) uint64 { _ = b[7]; return uint64(le32(b[4:]))<<32 | uint64(le32(b)) }

func putBE16(b []byte, v uint16) { _ = b[1]; b[0], b[1] = byte(v>>8), byte(v) }

// probe tells a binary.ByteOrder's direction without allocating.
var probe = [2]byte{0, 1}

// isBig reports whether order is big-endian; nil means little-endian.
func isBig(order binary.ByteOrder) bool { return order != nil && order.Uint16(probe[:]) == 1 }

// orderOf returns the binary.ByteOrder of an MSBF flag.
func orderOf(big bool) binary.ByteOrder {
	if big {
		return binary.BigEndian
	}
	return binary.LittleEndian
}
