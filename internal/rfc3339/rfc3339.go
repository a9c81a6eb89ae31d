// Package rfc3339 formats Unix times as RFC 3339 UTC text, the way
// time.Time.Format does for the layouts perfwire prints, without the
// time package's general formatter: in a WebAssembly module that
// formatter and its layout parser are more code than every other use of
// time together (module size; see wasm/size).
package rfc3339

// Trimmed, as Append's digits, prints up to nine fraction digits with
// trailing zeros removed and no point when the fraction is zero, as
// time.RFC3339Nano does.
const Trimmed = -1

// Append appends sec seconds and nsec nanoseconds after the Unix epoch,
// in UTC, as YYYY-MM-DDThh:mm:ss[.fraction]Z. digits is the number of
// fraction digits (0 to 9, truncated, as time.Format truncates) or
// Trimmed. nsec outside [0, 1e9) is carried into sec first, as time.Unix
// does. Years outside 0..9999 print as time.Format prints them: a minus
// sign before a negative year, more than four digits above 9999.
func Append(dst []byte, sec, nsec int64, digits int) []byte {
	if nsec < 0 || nsec >= 1e9 {
		sec += nsec / 1e9
		nsec %= 1e9
		if nsec < 0 {
			nsec += 1e9
			sec--
		}
	}
	days, secs := sec/86400, sec%86400
	if secs < 0 {
		secs += 86400
		days--
	}
	// The proleptic Gregorian date of days since 1970-01-01, counting in
	// 400-year eras that start on 1 March so that the leap day ends each
	// era's year (the method of Howard Hinnant's date algorithms); kept
	// inline, not a function of its own: module size; see wasm/size.
	z := days + 719468 // days since 0000-03-01
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097                                  // [0, 146096]
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365 // [0, 399]
	doy := doe - (365*yoe + yoe/4 - yoe/100)               // [0, 365]
	mp := (5*doy + 2) / 153                                // [0, 11], March first
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
	}
	y := yoe + era*400
	if m <= 2 {
		y++
	}
	// The text is made in t and appended once: an append per part
	// cost WebAssembly code at each. t holds a sign, the year (at most
	// 12 digits: 2^63 seconds are 2.9e11 years), "-MM-DDThh:mm:ss", a
	// point, 9 digits and the Z.
	var t [40]byte
	n := 0
	if y < 0 {
		t[0], n, y = '-', 1, -y
	}
	w := 4 // the year's digits: at least four
	for v := y / 10000; v > 0; v /= 10 {
		w++
	}
	for i := n + w - 1; i >= n; i-- {
		t[i], y = byte('0'+y%10), y/10
	}
	n += w
	for i, v := range [...]int64{m, d, secs / 3600, secs / 60 % 60, secs % 60} {
		t[n], t[n+1], t[n+2] = "--T::"[i], byte('0'+v/10), byte('0'+v%10)
		n += 3
	}
	if f := fraction(nsec, digits); f > 0 {
		t[n] = '.'
		for i, v := 9, nsec; i > 0; i, v = i-1, v/10 {
			if i <= f {
				t[n+i] = byte('0' + v%10)
			}
		}
		n += 1 + f
	}
	t[n] = 'Z'
	return append(dst, t[:n+1]...)
}

// String is Append into a new string.
func String(sec, nsec int64, digits int) string {
	var b [40]byte
	return string(Append(b[:0], sec, nsec, digits))
}

// fraction is the number of fraction digits to print of nsec as digits
// asks.
func fraction(nsec int64, digits int) int {
	if digits != Trimmed {
		return min(max(digits, 0), 9)
	}
	if nsec == 0 {
		return 0
	}
	n := 9
	for v := nsec; v%10 == 0; v /= 10 {
		n--
	}
	return n
}
