//go:build wasm

package pduwire

import "encoding/binary"

// be32 reads the big-endian word at off; callers have checked bounds. In
// WebAssembly it is not inlined: its ~60 inlined copies cost the module
// 4.5 KB, most of it the inlining's own tables (issue 18). The RESULT
// walks (validate, the value-set scanners, block) read their words
// with binary.BigEndian themselves.
//
//go:noinline
func be32(b []byte, off int) uint32 { return binary.BigEndian.Uint32(b[off:]) }
