//go:build !wasm

package mmv

import "encoding/binary"

// u32 reads a 32-bit word at off in the file's byte order. Natively a
// read in each order is faster than order_wasm.go's swap (6-8 % on
// BenchmarkReadAllWords).
func (r *Reader) u32(off int) uint32 {
	if r.big {
		return binary.BigEndian.Uint32(r.b[off:])
	}
	return binary.LittleEndian.Uint32(r.b[off:])
}

// u64 reads a 64-bit word at off in the file's byte order.
func (r *Reader) u64(off int) uint64 {
	if r.big {
		return binary.BigEndian.Uint64(r.b[off:])
	}
	return binary.LittleEndian.Uint64(r.b[off:])
}

// u32Cold is u32 for the reads done once per entry or section, not
// inlined in WebAssembly (order_wasm.go); natively it is u32.
func (r *Reader) u32Cold(off int) uint32 { return r.u32(off) }
