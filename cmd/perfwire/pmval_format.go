package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// format prints a value as pmval does: reals in its adaptive format,
// everything else as pmPrintValue does.
func (r *pmvalRun) format(valfmt uint8, v pduwire.ValueData, width int) string {
	raw := r.raw(valfmt, v)
	t := r.desc.Type
	if t == pcp.TypeFloat || t == pcp.TypeDouble {
		a, err := pcp.Extract(raw, t, pcp.TypeDouble)
		if err != nil {
			return fmt.Sprintf("%*s", width, "?")
		}
		return realText(a.Float64(), r.desc.Sem, width, r.o.fixed)
	}
	return printValue(raw, t, width)
}

// realText is pmval's format for reals: about four significant digits
// with the decimal point kept in one column, exponents outside
// 0.1…9999, "!" for a negative rate, or a fixed number of decimals (-f).
func realText(v float64, sem pcp.Sem, width, fixed int) string {
	switch {
	case v < 0 && sem == pcp.SemCounter:
		return fmt.Sprintf("%*s", width, "!")
	case fixed != -1:
		return fmt.Sprintf("%*.*f", width, fixed, v)
	case v == 0:
		return fmt.Sprintf("%*.0f.0   ", width-5, v)
	case v < 0.1 || v > 9999:
		return fmt.Sprintf("%*.3E", width, v)
	case v <= 0.9999:
		return fmt.Sprintf("%*.4f", width, v)
	case v <= 9.999:
		return fmt.Sprintf("%*.3f ", width-1, v)
	case v <= 99.99:
		return fmt.Sprintf("%*.2f  ", width-2, v)
	case v <= 999.9:
		return fmt.Sprintf("%*.1f   ", width-3, v)
	}
	return fmt.Sprintf("%*.0f.    ", width-5, v)
}

// printValue formats a value as libpcp's pmPrintValue does at the given
// minimum width.
func printValue(raw pcp.Raw, t pcp.Type, width int) string {
	a, err := pcp.Extract(raw, t, t)
	if err != nil {
		return fmt.Sprintf("%*s", width, "?")
	}
	switch t {
	case pcp.Type32:
		return fmt.Sprintf("%*d", width, a.Int32())
	case pcp.TypeU32:
		return fmt.Sprintf("%*d", width, a.Uint32())
	case pcp.Type64:
		return fmt.Sprintf("%*d", width, a.Int64())
	case pcp.TypeU64:
		return fmt.Sprintf("%*d", width, a.Uint64())
	case pcp.TypeString:
		return fmt.Sprintf("%*s", width, `"`+string(a.Bytes())+`"`)
	}
	return aggregateText(raw, width)
}

// aggregateText is pmPrintValue's view of a block it has no type for:
// the bytes as a 64-bit number, a double or a float when the length
// fits one, as a string when every byte prints, then in hex.
func aggregateText(raw pcp.Raw, width int) string {
	var b strings.Builder
	if raw.Insitu {
		f := math.Float32frombits(raw.Word)
		fmt.Fprintf(&b, "%*d", width, raw.Word)
		if !math.IsNaN(float64(f)) {
			fmt.Fprintf(&b, " %*s", width, cFloat(float64(f), 8))
		}
		w := width
		if w > 2 {
			w -= 2
		}
		fmt.Fprintf(&b, " 0x%*x", w, raw.Word)
		return b.String()
	}
	p := raw.Block
	done := false
	sep := func() {
		if done {
			b.WriteByte(' ')
		}
		done = true
	}
	// libpcp reads these in host order: x86-64 is little-endian.
	switch len(p) {
	case 8:
		u := uint64(p[0]) | uint64(p[1])<<8 | uint64(p[2])<<16 | uint64(p[3])<<24 |
			uint64(p[4])<<32 | uint64(p[5])<<40 | uint64(p[6])<<48 | uint64(p[7])<<56
		fmt.Fprintf(&b, "%*d", width, u)
		done = true
		if d := math.Float64frombits(u); !math.IsNaN(d) {
			sep()
			fmt.Fprintf(&b, "%*s", width, cFloat(d, 16))
		}
	case 4:
		u := uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24
		if f := math.Float32frombits(u); !math.IsNaN(float64(f)) {
			sep()
			fmt.Fprintf(&b, "%*s", width, cFloat(float64(f), 8))
		}
	}
	printable := true
	for _, c := range p {
		if c < 0x20 || c > 0x7e {
			printable = false
			break
		}
	}
	if printable {
		sep()
		fmt.Fprintf(&b, "%*s", width, `"`+string(p)+`"`)
	}
	if n := 2*len(p) + 2; n < width {
		b.WriteString(strings.Repeat(" ", width-n))
	}
	if done {
		b.WriteByte(' ')
	}
	fmt.Fprintf(&b, "[%x]", p)
	return b.String()
}

// cFloat is C's %.Ng for a finite value: strconv's 'g' with a precision
// picks the same notation and also writes at least two exponent digits.
func cFloat(v float64, prec int) string { return strconv.FormatFloat(v, 'g', prec, 64) }
