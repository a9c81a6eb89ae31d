package dlt

// Byte-order reads, written out because encoding/binary imports reflect
// (Go 1.26), which the wasm plugins must not pull in. Callers check
// lengths first; like encoding/binary these panic on short input.

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
