//go:build wasm

package archive

import "encoding/binary"

// be32 reads a big-endian word; callers have checked the bounds. In
// WebAssembly it is not inlined: its ~40 inlined copies, each a slice
// check and four byte loads, cost the module 4 KB (issue 18).
//
//go:noinline
func be32(b []byte, off int) uint32 { return binary.BigEndian.Uint32(b[off:]) }
