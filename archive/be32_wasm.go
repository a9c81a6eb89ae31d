//go:build wasm

package archive

import "encoding/binary"

// be32 reads a big-endian word; callers have checked the bounds. In
// WebAssembly it is kept out of line: each inlined copy is a slice check
// and four byte loads (module size; see wasm/size).
//
//go:noinline
func be32(b []byte, off int) uint32 { return binary.BigEndian.Uint32(b[off:]) }
