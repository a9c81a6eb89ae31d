//go:build !wasm

package mmv

import "encoding/binary"

// u32 reads a 32-bit word at off in the file's byte order. Natively a
// read in each order is faster than order_wasm.go's swap (6-8 % on
// BenchmarkReadAllWords).
func (r *File) u32(off int) uint32 {
	if r.big {
		return binary.BigEndian.Uint32(r.b[off:])
	}
	return binary.LittleEndian.Uint32(r.b[off:])
}

// u64 reads a 64-bit word at off in the file's byte order.
func (r *File) u64(off int) uint64 {
	if r.big {
		return binary.BigEndian.Uint64(r.b[off:])
	}
	return binary.LittleEndian.Uint64(r.b[off:])
}

// u32Cold is u32 for the reads done once per entry or section, not
// inlined in WebAssembly (order_wasm.go); natively it is u32.
func (r *File) u32Cold(off int) uint32 { return r.u32(off) }

// divSize divides by an entry size; the constant cases let the compiler
// multiply instead of divide, which matters when reading many values.
func divSize(d, size uint64) (q, rem uint64) {
	switch size {
	case 32:
		q = d / 32
	case 48:
		q = d / 48
	case 24:
		q = d / 24
	case 104:
		q = d / 104
	case 80:
		q = d / 80
	default:
		q = d / size
	}
	return q, d - q*size
}
