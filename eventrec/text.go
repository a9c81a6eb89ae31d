package eventrec

import (
	"math"
	"strconv"

	"github.com/perfwire/perfwire/pcp"
)

const hexDigits = "0123456789abcdef"

// AppendText appends the parameter's value as pminfo prints it
// (libpcp's pmPrintValue, checked against pminfo -x for every type the
// format allows): integers in decimal, FLOAT with 8 and DOUBLE with 16
// significant digits (%g), STRING in double quotes with its bytes
// unchanged, and AGGREGATE as its first 8 bytes read as a little-endian
// (x86 host-order) u64 and as a double, then every byte in hex within
// brackets; aggregates shorter than 8 bytes print only the brackets. A
// value whose length does not fit its type appends "?". It never fails
// (encoding.TextAppender).
func (p Param) AppendText(b []byte) ([]byte, error) {
	v := p.Value
	switch p.Type {
	case pcp.Type32, pcp.TypeU32, pcp.TypeFloat:
		if len(v) != 4 {
			return append(b, '?'), nil
		}
		w := be32(v)
		switch p.Type {
		case pcp.Type32:
			return strconv.AppendInt(b, int64(int32(w)), 10), nil
		case pcp.TypeU32:
			return strconv.AppendUint(b, uint64(w), 10), nil
		}
		return strconv.AppendFloat(b, float64(math.Float32frombits(w)), 'g', 8, 32), nil
	case pcp.Type64, pcp.TypeU64, pcp.TypeDouble:
		if len(v) != 8 {
			return append(b, '?'), nil
		}
		w := be64(v)
		switch p.Type {
		case pcp.Type64:
			return strconv.AppendInt(b, int64(w), 10), nil
		case pcp.TypeU64:
			return strconv.AppendUint(b, w, 10), nil
		}
		return strconv.AppendFloat(b, math.Float64frombits(w), 'g', 16, 64), nil
	case pcp.TypeString:
		b = append(b, '"')
		b = append(b, v...)
		return append(b, '"'), nil
	case pcp.TypeAggregate:
		if len(v) >= 8 {
			w := le64(v)
			b = strconv.AppendUint(b, w, 10)
			b = append(b, ' ')
			b = strconv.AppendFloat(b, math.Float64frombits(w), 'g', 16, 64)
			b = append(b, ' ')
		}
		b = append(b, '[')
		for _, c := range v {
			b = append(b, hexDigits[c>>4], hexDigits[c&0xf])
		}
		return append(b, ']'), nil
	}
	return append(b, '?'), nil
}
