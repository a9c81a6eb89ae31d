//go:build !wasm

package dltkpi

import "encoding/binary"

// plainEnd is nextArg's fast path, for what dlt-kpi always writes: a
// little-endian string argument without a name, ending in its NUL. It
// returns the length of the argument at the start of h (header, text and
// NUL), or 0 for any other argument, which nextArg then reads or rejects.
func plainEnd(h []byte) int {
	if len(h) <= argOverhead || binary.LittleEndian.Uint32(h)&^0x38000 != tiString {
		return 0
	}
	end := argOverhead + int(binary.LittleEndian.Uint16(h[4:]))
	if end == argOverhead || end > len(h) || h[end-1] != 0 { // an empty string has no NUL
		return 0
	}
	return end
}
