package pcp

import (
	"math"
	"strconv"
)

// AppendText appends the text libpcp's pmAtomStr gives the value
// (encoding.TextAppender): integers in decimal; FLOAT and DOUBLE as C's
// "%e" ("1.750000e+00", "nan", "-inf"); a STRING quoted, cut at its first
// NUL and, from 38 bytes on, shortened to 34 bytes and "..."; an
// AGGREGATE as "[type=AGGREGATE len=N]" and its first 12 bytes in hex,
// grouped by four, then " ..." if there are more. It never fails.
func (a Atom) AppendText(b []byte) ([]byte, error) {
	switch a.Type() {
	case Type32:
		return strconv.AppendInt(b, int64(a.Int32()), 10), nil
	case TypeU32:
		return strconv.AppendUint(b, uint64(a.Uint32()), 10), nil
	case Type64:
		return strconv.AppendInt(b, a.Int64(), 10), nil
	case TypeU64:
		return strconv.AppendUint(b, a.Uint64(), 10), nil
	case TypeFloat:
		return appendE(b, float64(a.Float32())), nil
	case TypeDouble:
		return appendE(b, a.Float64()), nil
	case TypeString:
		s := a.buf
		for i, c := range s {
			if c == 0 {
				s = s[:i]
				break
			}
		}
		b = append(b, '"')
		if len(s) >= 38 {
			b = append(append(b, s[:34]...), "..."...)
		} else {
			b = append(b, s...)
		}
		return append(b, '"'), nil
	case TypeAggregate:
		b = append(b, "[type=AGGREGATE len="...)
		b = strconv.AppendInt(b, int64(len(a.buf)), 10)
		b = append(b, ']')
		const hexdigits = "0123456789abcdef"
		for i, c := range a.buf[:min(len(a.buf), 12)] {
			if i%4 == 0 {
				b = append(b, ' ')
			}
			b = append(b, hexdigits[c>>4], hexdigits[c&0xf])
		}
		if len(a.buf) > 12 {
			b = append(b, " ..."...)
		}
		return b, nil
	}
	return append(b, '?'), nil
}

// appendE formats v as C's printf("%e") does.
func appendE(b []byte, v float64) []byte {
	switch {
	case math.IsNaN(v) && math.Signbit(v):
		return append(b, "-nan"...)
	case math.IsNaN(v):
		return append(b, "nan"...)
	case math.IsInf(v, 1):
		return append(b, "inf"...)
	case math.IsInf(v, -1):
		return append(b, "-inf"...)
	}
	return strconv.AppendFloat(b, v, 'e', 6, 64)
}

// String returns the AppendText form.
func (a Atom) String() string {
	var buf [64]byte
	b, _ := a.AppendText(buf[:0])
	return string(b)
}
