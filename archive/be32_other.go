//go:build !wasm

package archive

import "encoding/binary"

// be32 reads a big-endian word; callers have checked the bounds.
func be32(b []byte, off int) uint32 { return binary.BigEndian.Uint32(b[off:]) }
