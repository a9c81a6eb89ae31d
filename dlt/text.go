package dlt

import (
	"math"
	"strconv"
)

const hexDigits = "0123456789abcdef"

// AppendText appends the argument as `dlt-convert -a` (DLT 2.18.8)
// prints it, so a viewer shows what the reference tool shows:
//
//   - bool: 1 or 0; integers up to 64 bits: decimal; unsigned with HEX
//     coding: 0x and two digits per byte; with BIN coding: 0b and
//     4-bit groups separated by spaces. The tool takes the bytes from
//     last to first whatever the byte order, so big-endian values show
//     byte-swapped; this does the same ([Arg.Uint] has the value);
//   - 32- and 64-bit floats: like C's %g (6 significant digits);
//   - 128-bit integers and 16- and 128-bit floats, which the tool does
//     not convert: their bytes in wire order as hex separated by spaces;
//   - strings and trace info: the bytes up to the first NUL, with CR
//     and LF turned into spaces and everything else raw;
//   - raw data: hex bytes separated by ';
//   - names, units and fixed-point parameters are not shown.
//
// Where the tool prints nothing and abandons the rest of the line (BIN
// coding on 32-bit or wider integers, HEX coding on 128-bit ones), this
// prints the value anyway, in the same style. It never fails.
func (a Arg) AppendText(b []byte) ([]byte, error) {
	v := a.Bytes()
	sep := byte(' ') // between the hex bytes of the kinds shown so
	switch k := a.Kind(); k {
	case KindBool: // one byte
		c := byte('0')
		if len(v) > 0 && v[0] != 0 {
			c = '1'
		}
		return append(b, c), nil
	case KindSigned, KindUnsigned:
		if k == KindUnsigned {
			switch a.Coding() {
			case CodingHex:
				return appendHexValue(b, v), nil
			case CodingBin:
				// "0b" and the bits of v's bytes from last to first,
				// in groups of four separated by spaces; kept inline,
				// not a function of its own: module size; see
				// wasm/size.
				b = append(b, "0b"...)
				for i := range v {
					c := v[len(v)-1-i]
					if i > 0 {
						b = append(b, ' ')
					}
					for bit := 7; bit >= 0; bit-- {
						if bit == 3 {
							b = append(b, ' ')
						}
						b = append(b, '0'+c>>uint(bit)&1)
					}
				}
				return b, nil
			}
		}
		if len(v) != 16 {
			u := a.Uint() // one Uint for both: Int is its bits
			if k == KindSigned {
				return strconv.AppendInt(b, int64(u), 10), nil
			}
			return strconv.AppendUint(b, u, 10), nil
		}
	case KindFloat:
		if len(v) != 2 && len(v) != 16 {
			// As C's printf("%g"): Go's 'g' with precision 6 agrees
			// except for the spelling of infinities and NaN.
			switch f := a.Float(); {
			case math.IsNaN(f):
				if math.Signbit(f) {
					return append(b, "-nan"...), nil
				}
				return append(b, "nan"...), nil
			case math.IsInf(f, 1):
				return append(b, "inf"...), nil
			case math.IsInf(f, -1):
				return append(b, "-inf"...), nil
			default:
				return strconv.AppendFloat(b, f, 'g', 6, 64), nil
			}
		}
	case KindRaw:
		sep = '\''
	case KindString, KindTrace:
		for _, c := range v {
			switch c {
			case 0:
				return b, nil
			case '\r', '\n':
				c = ' '
			}
			b = append(b, c)
		}
		return b, nil
	default:
		return b, nil
	}
	// 128-bit integers, 16- and 128-bit floats and raw bytes: in hex.
	return appendHexBytes(b, "", v, sep), nil
}

// appendHexBytes appends pre, then each byte of v as two hex digits,
// separated by sep.
func appendHexBytes(b []byte, pre string, v []byte, sep byte) []byte {
	return appendHex(b, pre, v, sep, false)
}

// appendHexValue appends "0x" and the bytes of v from last to first,
// which is most significant first for little-endian values.
func appendHexValue(b, v []byte) []byte { return appendHex(b, "0x", v, 0, true) }

// appendHex appends pre, then each byte of v as two hex digits,
// separated by sep (nothing for 0), from last to first when rev: the
// one body of appendHexBytes and appendHexValue.
//
//go:noinline
func appendHex(b []byte, pre string, v []byte, sep byte, rev bool) []byte {
	b = append(b, pre...)
	for i := range v {
		c := v[i]
		if rev {
			c = v[len(v)-1-i]
		}
		if i > 0 && sep != 0 {
			b = append(b, sep)
		}
		b = append(b, hexDigits[c>>4], hexDigits[c&15])
	}
	return b
}
