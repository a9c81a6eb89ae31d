package abi

import "math"

// A RESULT's 32-bit words and doubles in the forms msgp's AppendInt64
// and AppendFloat64 write (the smallest form for an integer), appended
// without their calls: each of those calls two more (a room check and a
// store), and a call costs far more in WebAssembly than natively. A
// RESULT stream is mostly such numbers (issue 18 item 7). The 64-bit
// integers keep msgp's: their code here cost 4 KB of each module.

// appendInt32 appends v as msgp.AppendInt64 does: a fixint here, with
// no call (it inlines), the other forms in appendInt32Wide.
func appendInt32(b []byte, v int32) []byte {
	if v >= -32 && v <= math.MaxInt8 {
		return append(b, byte(v))
	}
	return appendInt32Wide(b, v)
}

// appendInt32Wide appends a v that is no fixint as msgp.AppendInt64 does.
func appendInt32Wide(b []byte, v int32) []byte {
	switch {
	case v >= math.MinInt8 && v < 0:
		return append(b, 0xd0, byte(v))
	case v >= math.MinInt16 && v <= math.MaxInt16:
		return append(b, 0xd1, byte(v>>8), byte(v))
	}
	return append(b, 0xd2, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
}

// appendFloat64 appends f as msgp.AppendFloat64 does.
func appendFloat64(b []byte, f float64) []byte {
	u := math.Float64bits(f)
	return append(b, 0xcb, byte(u>>56), byte(u>>48), byte(u>>40), byte(u>>32), byte(u>>24), byte(u>>16), byte(u>>8), byte(u))
}
