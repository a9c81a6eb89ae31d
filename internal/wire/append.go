package wire

import "encoding/binary"

// Pad4 rounds n up to a multiple of 4, the alignment of PCP bodies and of
// MMV and LTT records. n must be non-negative.
func Pad4(n int) int { return (n + 3) &^ 3 }

// AppendZeros appends n zero bytes, as padding or as space to back-patch.
func AppendZeros(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, 0)
	}
	return b
}

// AppendPad4 appends zero bytes until len(b)-start is a multiple of 4;
// start is where the padded item began.
func AppendPad4(b []byte, start int) []byte {
	return AppendZeros(b, Pad4(len(b)-start)-(len(b)-start))
}

// AppendU16BE appends v big-endian.
func AppendU16BE(b []byte, v uint16) []byte { return binary.BigEndian.AppendUint16(b, v) }

// AppendU32BE appends v big-endian.
func AppendU32BE(b []byte, v uint32) []byte { return binary.BigEndian.AppendUint32(b, v) }

// AppendU64BE appends v big-endian.
func AppendU64BE(b []byte, v uint64) []byte { return binary.BigEndian.AppendUint64(b, v) }

// AppendU16LE appends v little-endian.
func AppendU16LE(b []byte, v uint16) []byte { return binary.LittleEndian.AppendUint16(b, v) }

// AppendU32LE appends v little-endian.
func AppendU32LE(b []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(b, v) }

// AppendU64LE appends v little-endian.
func AppendU64LE(b []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(b, v) }

// AppendU32 appends v in the byte order bigEndian selects.
func AppendU32(b []byte, v uint32, bigEndian bool) []byte {
	if bigEndian {
		return AppendU32BE(b, v)
	}
	return AppendU32LE(b, v)
}

// AppendU64 appends v in the byte order bigEndian selects.
func AppendU64(b []byte, v uint64, bigEndian bool) []byte {
	if bigEndian {
		return AppendU64BE(b, v)
	}
	return AppendU64LE(b, v)
}

// PutU32BE overwrites b[off:off+4] with v, for lengths that are only known
// once a body is complete (PCP's len word includes the header).
func PutU32BE(b []byte, off int, v uint32) { binary.BigEndian.PutUint32(b[off:], v) }
