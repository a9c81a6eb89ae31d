//go:build wasm

package dltkpi

// plainEnd is plainend_other.go's, its type info compared a byte at a
// time: in WebAssembly binary.LittleEndian's reads are four loads and
// shifts, which put plainEnd over the inliner's budget, and Parse and the
// scanner called it for every argument (in Node, a tenth of kpi_decode).
func plainEnd(h []byte) int {
	if len(h) <= argOverhead || h[0] != 0 || h[1]&^0x80 != tiString>>8 || h[2]&^3 != 0 || h[3] != 0 {
		return 0
	}
	end := argOverhead + int(h[4]) + int(h[5])<<8
	if end == argOverhead || end > len(h) || h[end-1] != 0 { // an empty string has no NUL
		return 0
	}
	return end
}
