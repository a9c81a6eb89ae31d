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
// It is not inlined, for the size of the WebAssembly modules (issue 18).
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
	ds, dt, dc := u.DimSpace(), u.DimTime(), u.DimCount()
	if ds > 0 {
		b = u.appendSpace(b, ds)
	}
	if dt > 0 {
		b = u.appendTime(b, dt)
	}
	if dc > 0 {
		b = u.appendCount(b, dc)
	}
	if ds < 0 || dt < 0 || dc < 0 {
		b = append(b, "/ "...)
		if ds < 0 {
			b = u.appendSpace(b, -ds)
		}
		if dt < 0 {
			b = u.appendTime(b, -dt)
		}
		if dc < 0 {
			b = u.appendCount(b, -dc)
		}
	}
	if len(b) > start {
		return b[:len(b)-1], nil // each term left a trailing space
	}
	// No dimension at all: only a count scale can show.
	switch sc := u.ScaleCount(); sc {
	case 0:
	case 1:
		b = append(b, "x 10"...)
	default:
		b = append(b, "x 10^"...)
		b = strconv.AppendInt(b, int64(sc), 10)
	}
	return b, nil
}

// appendPower appends "^p" when p is not 1, then the separating space.
func appendPower(b []byte, p int) []byte {
	if p != 1 {
		b = append(b, '^')
		b = strconv.AppendInt(b, int64(p), 10)
	}
	return append(b, ' ')
}

func (u Units) appendSpace(b []byte, p int) []byte {
	if s := u.ScaleSpace(); s < uint(len(spaceNames)) {
		b = append(b, spaceNames[s]...)
	} else {
		b = append(b, "space-"...)
		b = strconv.AppendUint(b, uint64(s), 10)
	}
	return appendPower(b, p)
}

func (u Units) appendTime(b []byte, p int) []byte {
	if s := u.ScaleTime(); s < uint(len(timeNames)) {
		b = append(b, timeNames[s]...)
	} else {
		b = append(b, "time-"...)
		b = strconv.AppendUint(b, uint64(s), 10)
	}
	return appendPower(b, p)
}

func (u Units) appendCount(b []byte, p int) []byte {
	b = append(b, "count"...)
	switch sc := u.ScaleCount(); sc {
	case 0:
	case 1:
		b = append(b, " x 10"...)
	default:
		b = append(b, " x 10^"...)
		b = strconv.AppendInt(b, int64(sc), 10)
	}
	return appendPower(b, p)
}

// ExtraUnit returns the PCP 7.2 extra unit (bits 7–3, signed: 1
// temperature, 2 voltage, 3 current, 4 power); 0 from 6.x peers.
func (u Units) ExtraUnit() int { return int(int32(uint32(u)<<24) >> 27) }

// ExtraScale returns the PCP 7.2 extra scale (bits 2–0), whose meaning
// depends on ExtraUnit; 0 from 6.x peers.
func (u Units) ExtraScale() uint { return uint(u) & 7 }
