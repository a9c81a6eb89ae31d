package pcp

import "strconv"

var spaceNames = [...]string{"byte", "Kbyte", "Mbyte", "Gbyte", "Tbyte", "Pbyte", "Ebyte", "Zbyte", "Ybyte"}

var timeNames = [...]string{"nanosec", "microsec", "millisec", "sec", "min", "hour"}

// String formats u as libpcp 6.0.3's pmUnitsStr does: positive dimensions
// first ("Kbyte", "sec^2", "count x 10^6"), then "/ " and the negative
// ones, so 0x1F023000 is "Mbyte / sec". Dimensionless units print "" or,
// with a count scale, "x 10^N"; tools such as pminfo print "none" for "".
// Out-of-range scales print as "space-N" and "time-N". The extra unit and
// scale of PCP 7.2 (bits 7–0) are not printed, as 6.x peers ignore them.
//
// It is kept out of line: module size; see wasm/size.
//
//go:noinline
func (u Units) String() string {
	var buf [64]byte
	b, _ := u.AppendText(buf[:0])
	return string(b)
}

// AppendText appends the String form of u to b (encoding.TextAppender);
// it never fails.
func (u Units) AppendText(b []byte) ([]byte, error) {
	start := len(b)
	dims := [...]int{u.DimSpace(), u.DimTime(), u.DimCount()}
	// The positive dimensions, then "/ " and the negative ones: one loop
	// over both passes and the three dimensions, not six calls (module
	// size; see wasm/size).
	for sign := 1; sign >= -1; sign -= 2 {
		if sign < 0 {
			if dims[0] >= 0 && dims[1] >= 0 && dims[2] >= 0 {
				break
			}
			b = append(b, "/ "...)
		}
		// Dimension k (0 space, 1 time, 2 count) with its scale's name
		// and power d, then the separating space; kept inline, not a
		// function of its own: module size; see wasm/size.
		for k, d := range dims {
			if d *= sign; d <= 0 {
				continue
			}
			if k == 2 {
				b = appendCountScale(append(b, "count"...), u.ScaleCount(), " x 10")
			} else {
				names, other, s := spaceNames[:], "space-", u.ScaleSpace()
				if k == 1 {
					names, other, s = timeNames[:], "time-", u.ScaleTime()
				}
				if s < uint(len(names)) {
					b = append(b, names[s]...)
				} else {
					b = strconv.AppendUint(append(b, other...), uint64(s), 10)
				}
			}
			if d != 1 {
				b = append(b, '^', byte('0'+d)) // a 4-bit dimension's size: 2 to 8
			}
			b = append(b, ' ')
		}
	}
	if len(b) > start {
		return b[:len(b)-1], nil // each term left a trailing space
	}
	// No dimension at all: only a count scale can show.
	return appendCountScale(b, u.ScaleCount(), "x 10"), nil
}

// appendCountScale appends a count scale sc (4 bits signed, −8 to 7):
// nothing for 0, x10 for 1 ("x 10" or " x 10" as given), else x10 and
// "^sc". It is kept out of line at its two callers: module size; see
// wasm/size.
//
//go:noinline
func appendCountScale(b []byte, sc int, x10 string) []byte {
	if sc == 0 {
		return b
	}
	b = append(b, x10...)
	if sc != 1 {
		b = append(b, '^')
		if sc < 0 {
			b, sc = append(b, '-'), -sc
		}
		b = append(b, byte('0'+sc))
	}
	return b
}

// ExtraUnit returns the PCP 7.2 extra unit (bits 7–3, signed: 1
// temperature, 2 voltage, 3 current, 4 power); 0 from 6.x peers.
func (u Units) ExtraUnit() int { return int(int32(uint32(u)<<24) >> 27) }

// ExtraScale returns the PCP 7.2 extra scale (bits 2–0), whose meaning
// depends on ExtraUnit; 0 from 6.x peers.
func (u Units) ExtraScale() uint { return uint(u) & 7 }
