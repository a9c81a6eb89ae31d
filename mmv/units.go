package mmv

import (
	"strconv"

	"github.com/perfwire/perfwire/pcp"
)

var (
	spaceNames = [...]string{"byte", "Kbyte", "Mbyte", "Gbyte", "Tbyte", "Pbyte", "Ebyte", "Zbyte", "Ybyte"}
	timeNames  = [...]string{"nanosec", "microsec", "millisec", "sec", "min", "hour"}
)

// AppendUnits appends the text libpcp's pmUnitsStr gives for u (PCP
// 6.0.3), as mmvdump prints it: "count", "Mbyte / sec", "/ sec",
// "count x 10^6", "" for no dimension. It stands in for pcp.Units
// text until package pcp has it.
func AppendUnits(b []byte, u pcp.Units) []byte {
	start := len(b)
	sep := func() {
		if len(b) > start {
			b = append(b, ' ')
		}
	}
	dim := func(name string, scale uint, names []string, d int) {
		sep()
		if scale < uint(len(names)) {
			b = append(b, names[scale]...)
		} else {
			b = append(b, name...)
			b = append(b, '-')
			b = strconv.AppendUint(b, uint64(scale), 10)
		}
		if d > 1 {
			b = append(b, '^')
			b = strconv.AppendInt(b, int64(d), 10)
		}
	}
	count := func(d int) {
		if d != 0 {
			sep()
			b = append(b, "count"...)
			if d > 1 {
				b = append(b, '^')
				b = strconv.AppendInt(b, int64(d), 10)
			}
		}
		if s := u.ScaleCount(); s != 0 {
			sep()
			b = append(b, "x 10"...)
			if s != 1 {
				b = append(b, '^')
				b = strconv.AppendInt(b, int64(s), 10)
			}
		}
	}
	ds, dt, dc := u.DimSpace(), u.DimTime(), u.DimCount()
	if ds > 0 {
		dim("space", u.ScaleSpace(), spaceNames[:], ds)
	}
	if dt > 0 {
		dim("time", u.ScaleTime(), timeNames[:], dt)
	}
	if dc > 0 || dc == 0 && ds >= 0 && dt >= 0 {
		count(dc)
	}
	if ds < 0 || dt < 0 || dc < 0 {
		sep()
		b = append(b, '/')
		if ds < 0 {
			dim("space", u.ScaleSpace(), spaceNames[:], -ds)
		}
		if dt < 0 {
			dim("time", u.ScaleTime(), timeNames[:], -dt)
		}
		if dc < 0 {
			count(-dc)
		}
	}
	return b
}
