//go:build wasm

package pduwire

import "encoding/binary"

// be32 reads the big-endian word at off; callers have checked bounds. In
// WebAssembly it is kept out of line: inlined copies cost more code and
// tables than the calls (module size; see wasm/size). The RESULT
// walks (validate, the value-set scanners, block) read their words
// with binary.BigEndian themselves.
//
//go:noinline
func be32(b []byte, off int) uint32 { return binary.BigEndian.Uint32(b[off:]) }
