package dltkpi

// The decimal number readers the dataset parsers share, with exact
// range checks and error offsets; the fast paths of parseACT and
// parseIRQ read the common shapes inline and fall back to these.

// signed applies a sign to a magnitude and checks it against a C type
// whose largest value is hi (its smallest is -hi-1).
func signed(u uint64, neg bool, hi uint64) (int64, bool) {
	if neg {
		if u > hi+1 {
			return 0, false
		}
		return -int64(u-1) - 1, true
	}
	if u > hi {
		return 0, false
	}
	return int64(u), true
}

// field parses a decimal C integer at off, 1*DIGIT after an optional
// '-', that ends at sep (or at the end of b when sep is 0) and returns it
// with the offset after sep. On failure the offset is where the problem
// is.
func field(b []byte, off int, sep byte, lo, hi int64) (int64, int, error) {
	neg := false
	if off < len(b) && b[off] == '-' {
		neg = true
		off++
	}
	start, i := off, off
	var u uint64
	for ; i < len(b); i++ {
		c := b[i] - '0'
		if c > 9 {
			break
		}
		u = u*10 + uint64(c)
	}
	switch n := i - start; {
	case n == 0:
		return 0, i, ErrSyntax
	case n > 19 && !fitsUint64(b[start:i]): // 19 digits always fit
		return 0, start, ErrRange
	case sep == 0 && i != len(b), sep != 0 && (i == len(b) || b[i] != sep):
		return 0, i, ErrSyntax
	}
	if sep != 0 {
		i++
	}
	var v int64
	if neg {
		if u > uint64(-(lo+1))+1 {
			return 0, off, ErrRange
		}
		v = -int64(u-1) - 1
	} else {
		if u > uint64(hi) {
			return 0, off, ErrRange
		}
		v = int64(u)
	}
	if v < lo {
		return 0, off, ErrRange
	}
	return v, i, nil
}

// fitsUint64 reports whether a string of decimal digits is at most
// 2^64 - 1, leading zeros allowed.
func fitsUint64(d []byte) bool {
	for len(d) > 1 && d[0] == '0' {
		d = d[1:]
	}
	const max = "18446744073709551615"
	return len(d) < len(max) || (len(d) == len(max) && string(d) <= max)
}
