package ltt

import (
	"encoding/binary"
	"math"
)

// Layout is what decoding and encoding a value needs besides its type:
// the trace's byte order and data model.
type Layout struct {
	BigEndian bool
	Arch      Arch
}

// uint reads an n-byte unsigned integer (n is 1, 2, 4 or 8).
// The branches call the concrete orders directly: going through the
// binary.ByteOrder interface costs an indirect call per field.
func (l Layout) uint(b []byte, n int) uint64 {
	if l.BigEndian {
		switch n {
		case 1:
			return uint64(b[0])
		case 2:
			return uint64(binary.BigEndian.Uint16(b))
		case 4:
			return uint64(binary.BigEndian.Uint32(b))
		}
		return binary.BigEndian.Uint64(b)
	}
	switch n {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

// sizeOf returns how many bytes of b the value of type t occupies, or a
// negative number when b is too short or malformed: -1 truncated, -2 an
// unterminated string, -3 a bad union tag. The caller has validated t
// with check, so recursion is bounded by maxTypeDepth.
func (l Layout) sizeOf(t *Type, b []byte) int {
	if t == nil {
		return 0
	}
	switch t.Kind {
	case KindInt, KindUint, KindEnum:
		return l.fixedLeaf(l.Arch.IntBytes(t.Size), b)
	case KindFloat:
		return l.fixedLeaf(l.Arch.FloatBytes(t.Size), b)
	case KindString:
		for i, c := range b {
			if c == 0 {
				return i + 1
			}
		}
		return -2
	case KindArray:
		return l.elemsSize(t.Elem, uint64(t.Count), b, 0)
	case KindSequence:
		n := l.Arch.IntBytes(t.Size)
		if len(b) < n {
			return -1
		}
		return l.elemsSize(t.Elem, l.uint(b, n), b, n)
	case KindStruct:
		off := 0
		for _, f := range t.Fields {
			n := l.sizeOf(f.Type, b[off:])
			if n < 0 {
				return n
			}
			off += n
		}
		return off
	case KindUnion:
		n := l.Arch.IntBytes(t.Size)
		if len(b) < n {
			return -1
		}
		tag := l.uint(b, n)
		if tag >= uint64(len(t.Fields)) {
			return -3
		}
		m := l.sizeOf(t.Fields[tag].Type, b[n:])
		if m < 0 {
			return m
		}
		return n + m
	}
	return -1
}

func (l Layout) fixedLeaf(n int, b []byte) int {
	if n == 0 || len(b) < n {
		return -1
	}
	return n
}

// elemsSize sizes count elements starting at b[off:]. Counts come from
// the wire, so they are checked against the bytes left before any loop:
// every element of a variable type takes at least one byte.
func (l Layout) elemsSize(elem *Type, count uint64, b []byte, off int) int {
	rest := uint64(len(b) - off)
	if fixed, _ := l.check(elem, 0); fixed >= 0 {
		if fixed != 0 && count > rest/uint64(fixed) {
			return -1
		}
		if fixed == 0 && count > rest+1<<20 {
			return -1 // zero-size elements: refuse absurd counts anyway
		}
		return off + int(count*uint64(fixed))
	}
	if count > rest {
		return -1
	}
	for ; count > 0; count-- {
		n := l.sizeOf(elem, b[off:])
		if n < 0 {
			return n
		}
		off += n
	}
	return off
}

// Value is a view of one decoded value inside a block: its type, its
// bytes and the layout to read them with. It aliases the block buffer and
// is valid until that buffer is reused or modified.
type Value struct {
	typ    *Type
	raw    []byte
	off    int
	layout Layout
}

// Type returns the value's type (nil for an empty payload).
func (v Value) Type() *Type { return v.typ }

// Kind returns the class of the value's type; an empty payload is a
// struct without fields.
func (v Value) Kind() Kind {
	if v.typ == nil {
		return KindStruct
	}
	return v.typ.Kind
}

// Bytes returns the raw bytes of the value, as a view.
func (v Value) Bytes() []byte { return v.raw }

// Offset is the value's byte offset in its block.
func (v Value) Offset() int { return v.off }

// Uint returns an int, uint or enum value zero-extended, or a union's
// tag; 0 for other kinds.
func (v Value) Uint() uint64 {
	switch v.Kind() {
	case KindInt, KindUint, KindEnum:
		return v.layout.uint(v.raw, len(v.raw))
	case KindUnion:
		return v.layout.uint(v.raw, v.layout.Arch.IntBytes(v.typ.Size))
	}
	return 0
}

// Int returns an int value sign-extended (other integers as Uint).
func (v Value) Int() int64 {
	u := v.Uint()
	if v.Kind() == KindInt {
		shift := 64 - 8*uint(len(v.raw))
		return int64(u<<shift) >> shift
	}
	return int64(u)
}

// Float returns a float value; 0 for other kinds.
func (v Value) Float() float64 {
	if v.Kind() != KindFloat {
		return 0
	}
	if len(v.raw) == 4 {
		return float64(math.Float32frombits(uint32(v.layout.uint(v.raw, 4))))
	}
	return math.Float64frombits(v.layout.uint(v.raw, 8))
}

// Text returns a string value's bytes without the NUL, as a view; nil for
// other kinds.
func (v Value) Text() []byte {
	if v.Kind() != KindString || len(v.raw) == 0 {
		return nil
	}
	return v.raw[: len(v.raw)-1 : len(v.raw)-1]
}

// Len returns the element count of an array or sequence, the field count
// of a struct, 1 for a union; 0 otherwise.
func (v Value) Len() int {
	switch v.Kind() {
	case KindArray:
		return int(v.typ.Count)
	case KindSequence:
		return int(v.layout.uint(v.raw, v.layout.Arch.IntBytes(v.typ.Size)))
	case KindStruct:
		if v.typ == nil {
			return 0
		}
		return len(v.typ.Fields)
	case KindUnion:
		return 1
	}
	return 0
}

// Label returns the enum label for the value. With positional false it
// follows C: value= sets a label's value and later labels count on from
// it. With positional true it follows LTTV, which ignored value= and used
// each label's position. ok is false when no label matches.
func (v Value) Label(positional bool) (name string, ok bool) {
	if v.Kind() != KindEnum {
		return "", false
	}
	x := v.Uint()
	next := uint64(0)
	for i, l := range v.typ.Labels {
		val := next
		if positional {
			val = uint64(i)
		} else if l.Value != "" {
			val = parseLabelValue(l.Value)
		}
		if val == x {
			return l.Name, true
		}
		next = val + 1
	}
	return "", false
}

// parseLabelValue reads a decimal (optionally negative) or 0x-prefixed
// value= attribute; anything else counts as 0.
func parseLabelValue(s string) uint64 {
	neg := false
	if len(s) > 0 && s[0] == '-' {
		neg, s = true, s[1:]
	}
	base := uint64(10)
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		base, s = 16, s[2:]
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		var d uint64
		switch {
		case c >= '0' && c <= '9':
			d = uint64(c - '0')
		case base == 16 && c >= 'a' && c <= 'f':
			d = uint64(c-'a') + 10
		case base == 16 && c >= 'A' && c <= 'F':
			d = uint64(c-'A') + 10
		default:
			return 0
		}
		n = n*base + d
	}
	if neg {
		return -n
	}
	return n
}

// Iter returns an iterator over the members of a struct, union, array or
// sequence value; it yields nothing for other kinds.
func (v Value) Iter() Iter {
	it := Iter{v: v, n: v.Len()}
	switch v.Kind() {
	case KindSequence, KindUnion:
		it.pos = v.layout.Arch.IntBytes(v.typ.Size)
	case KindArray, KindStruct:
	default:
		it.n = 0
	}
	return it
}

// Iter walks the members of a composite [Value] without allocating:
//
//	it := v.Iter()
//	for it.Next() {
//		name, member := it.Name(), it.Value()
//	}
//	if err := it.Err(); err != nil { ... }
//
// Values that come from a [Scanner] were sized when the event was read,
// so their iteration cannot fail; Err reports malformed bytes otherwise.
type Iter struct {
	v    Value
	i, n int
	pos  int
	name string
	cur  Value
	err  error
}

// Next advances to the next member and reports whether there is one.
func (it *Iter) Next() bool {
	if it.i >= it.n || it.err != nil {
		return false
	}
	var t *Type
	it.name = ""
	switch it.v.typ.Kind {
	case KindArray, KindSequence:
		t = it.v.typ.Elem
	case KindStruct:
		f := it.v.typ.Fields[it.i]
		t, it.name = f.Type, f.Name
	case KindUnion:
		tag := it.v.Uint()
		if tag >= uint64(len(it.v.typ.Fields)) {
			it.err = errAt("union tag", it.v.off, errUnionTag)
			return false
		}
		f := it.v.typ.Fields[tag]
		t, it.name = f.Type, f.Name
	}
	b := it.v.raw[it.pos:]
	n := it.v.layout.sizeOf(t, b)
	if n < 0 {
		it.err = sizeErr(n, it.name, it.v.off+it.pos)
		return false
	}
	it.cur = Value{typ: t, raw: b[:n:n], off: it.v.off + it.pos, layout: it.v.layout}
	it.pos += n
	it.i++
	return true
}

// Name returns the current member's field name ("" for elements).
func (it *Iter) Name() string { return it.name }

// Value returns the current member.
func (it *Iter) Value() Value { return it.cur }

// Err returns the error that stopped the iteration, if any.
func (it *Iter) Err() error { return it.err }

// sizeErr converts a negative sizeOf result into a *ParseError.
func sizeErr(n int, field string, off int) error {
	switch n {
	case -2:
		return errAt(field, off, errString)
	case -3:
		return errAt(field, off, errUnionTag)
	}
	return errAt(field, off, ErrTruncated)
}
