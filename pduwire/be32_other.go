//go:build !wasm

package pduwire

import "encoding/binary"

// be32 reads the big-endian word at off; callers have checked bounds.
func be32(b []byte, off int) uint32 { return binary.BigEndian.Uint32(b[off:]) }
