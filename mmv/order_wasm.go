//go:build wasm

package mmv

import (
	"encoding/binary"
	"math/bits"
)

// u32 reads a 32-bit word at off in the file's byte order. In
// WebAssembly the word is read little-endian and swapped for a big-endian
// file: one read, not a branch to each order's read (order_other.go) in
// each of its inlined copies (module size; see wasm/size).
func (r *File) u32(off int) uint32 {
	v := binary.LittleEndian.Uint32(r.b[off:])
	if r.big {
		v = bits.ReverseBytes32(v)
	}
	return v
}

// u64 reads a 64-bit word at off in the file's byte order.
func (r *File) u64(off int) uint64 {
	v := binary.LittleEndian.Uint64(r.b[off:])
	if r.big {
		v = bits.ReverseBytes64(v)
	}
	return v
}

// u32Cold is u32 for the reads done once per entry or section, not per
// value: kept out of line in WebAssembly (module size; see wasm/size),
// while Value and the value checks keep u32 inlined for speed.
//
//go:noinline
func (r *File) u32Cold(off int) uint32 { return r.u32(off) }

// divSize divides by an entry size. In WebAssembly a division is one
// instruction, where order_other.go's constant cases each expand to
// about twenty (no high multiply): File.NextValue leaves few lookups
// to File.index on the values' path.
func divSize(d, size uint64) (q, rem uint64) {
	q = d / size
	return q, d - q*size
}
