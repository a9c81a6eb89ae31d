package labels

import (
	"math"
	"strconv"
)

// Builder assembles a label set on the PMDA side, one typed label at a
// time, and produces its canonical form with Finish. Names are checked
// when added, with the Classic rule (accepted by every PCP since 4.3.3
// and by libpcp_mmv) unless Relaxed is set; a dotted name makes a
// compound label. The first failure is kept and returned by Finish, so
// calls can be chained without checking each one.
//
// The zero Builder is ready to use; Reset reuses its buffer.
type Builder struct {
	// Relaxed allows names that only PCP ≥ 7.2 accepts (leading digit or
	// underscore).
	Relaxed bool
	// Flags is ORed into every label: the level and Optional.
	Flags Flags
	// Limits bound the result; each zero field takes its default.
	Limits Limits

	text []byte
	err  error
}

// Reset discards the labels added so far and any error.
func (b *Builder) Reset() {
	b.text = b.text[:0]
	b.err = nil
}

// begin writes `,"name":` and reports whether the value may follow.
func (b *Builder) begin(name string) bool {
	if b.err != nil {
		return false
	}
	rules := Classic
	if b.Relaxed {
		rules = Relaxed
	}
	if !validName([]byte(name), rules, true) {
		b.err = errAt("name", len(b.text), ErrName)
		return false
	}
	if len(b.text) == 0 {
		b.text = append(b.text, '{')
	} else {
		b.text = append(b.text, ',')
	}
	b.text = append(b.text, '"')
	b.text = append(b.text, name...)
	b.text = append(b.text, '"', ':')
	return true
}

// String adds a string label; the value is escaped as JSON requires.
func (b *Builder) String(name, value string) *Builder {
	if b.begin(name) {
		b.text = appendQuoted(b.text, value)
	}
	return b
}

// Int adds an integer label.
func (b *Builder) Int(name string, v int64) *Builder {
	if b.begin(name) {
		b.text = strconv.AppendInt(b.text, v, 10)
	}
	return b
}

// Uint adds an unsigned integer label.
func (b *Builder) Uint(name string, v uint64) *Builder {
	if b.begin(name) {
		b.text = strconv.AppendUint(b.text, v, 10)
	}
	return b
}

// Float adds a number label in the shortest form that reads back as v.
// NaN and infinities have no JSON form: kind "labels_value".
func (b *Builder) Float(name string, v float64) *Builder {
	if b.err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
		b.err = errAt("value", len(b.text), errUnsupportedValue)
	}
	if b.begin(name) {
		b.text = strconv.AppendFloat(b.text, v, 'g', -1, 64)
	}
	return b
}

// Bool adds a true or false label.
func (b *Builder) Bool(name string, v bool) *Builder {
	if b.begin(name) {
		b.text = strconv.AppendBool(b.text, v)
	}
	return b
}

// Null adds a label whose value is null.
func (b *Builder) Null(name string) *Builder {
	if b.begin(name) {
		b.text = append(b.text, "null"...)
	}
	return b
}

// Raw adds a label whose value is the JSON text value (a scalar, a flat
// array or a map); Finish validates it.
func (b *Builder) Raw(name string, value []byte) *Builder {
	if b.begin(name) {
		b.text = append(b.text, value...)
	}
	return b
}

// Finish parses what was added into dst in sorted canonical form. It
// returns the first error met while adding, or the error Parse reports
// (duplicates, limits, a bad Raw value) with offsets into the text built
// so far.
func (b *Builder) Finish(dst *Set) error {
	if b.err != nil {
		dst.Reset()
		return b.err
	}
	if len(b.text) == 0 {
		b.text = append(b.text, '{')
	}
	b.text = append(b.text, '}')
	rules := Classic
	if b.Relaxed {
		rules = Relaxed
	}
	err := Parse(dst, b.text, Options{Names: rules, Dotted: true, Flags: b.Flags, Limits: b.Limits})
	b.text = b.text[:len(b.text)-1]
	if len(b.text) == 1 {
		b.text = b.text[:0]
	}
	return err
}

// appendQuoted appends s as a JSON string. Bytes from 0x80 up pass
// through unchanged, as libpcp keeps them.
func appendQuoted(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}
