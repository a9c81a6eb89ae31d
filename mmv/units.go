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
	// The count token carries its scale before its power:
	// "count x 10^6", "count x 10^2^3", or "x 10^6" without a dimension.
	count := func(d int) {
		sc := u.ScaleCount()
		if d == 0 && sc == 0 {
			return
		}
		sep()
		if d != 0 {
			b = append(b, "count"...)
			if sc != 0 {
				b = append(b, ' ')
			}
		}
		if sc != 0 {
			b = append(b, "x 10"...)
			if sc != 1 {
				b = append(b, '^')
				b = strconv.AppendInt(b, int64(sc), 10)
			}
		}
		if d > 1 {
			b = append(b, '^')
			b = strconv.AppendInt(b, int64(d), 10)
		}
	}
	ds, dt, dc := u.DimSpace(), u.DimTime(), u.DimCount()
	if ds > 0 {
		dim("space", u.ScaleSpace(), spaceNames[:], ds)
	}
	if dt > 0 {
		dim("time", u.ScaleTime(), timeNames[:], dt)
	}
	// A count scale without a count dimension shows only when nothing
	// else has a dimension ("x 10^6").
	if dc > 0 || dc == 0 && ds == 0 && dt == 0 {
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
