package abi

import "github.com/tinylib/msgp/msgp"

// enc writes one MessagePack map for the MarshalMsg methods that encgen
// generates (the *_enc.go files): a call per key, each writing the key
// and its value with msgp's append functions and counting the key, and
// end, which puts the count into the header beginMap reserved. One call
// per field keeps each method small in WebAssembly, where an inline
// append of a key's bytes costs a store per byte (issue 18). Every
// method is go:noinline: inlined, each would copy its body into some 90
// MarshalMsg methods, which doubled their size.
type enc struct {
	b    []byte
	at   int    // where the map header is
	n    uint32 // keys written
	wide bool   // the header has room for a map16: the type has over 15 fields
}

// beginMap reserves the header of a map of up to fields keys at the end
// of b: one byte when a fixmap can hold them all, three otherwise.
//
//go:noinline
func beginMap(b []byte, fields int) enc {
	e := enc{b: b, at: len(b), wide: fields > 15}
	if e.wide {
		e.b = append(e.b, 0xde, 0, 0)
	} else {
		e.b = append(e.b, 0x80)
	}
	return e
}

// end writes the header with the count of keys, in msgp's shortest
// form: a wide header with 15 keys or fewer becomes a fixmap, and what
// follows it moves back two bytes.
//
//go:noinline
func (e *enc) end() []byte {
	switch {
	case e.n <= 15:
		e.b[e.at] = 0x80 | byte(e.n)
		if e.wide {
			copy(e.b[e.at+1:], e.b[e.at+3:])
			e.b = e.b[:len(e.b)-2]
		}
	default:
		e.b[e.at+1], e.b[e.at+2] = byte(e.n>>8), byte(e.n)
	}
	return e.b
}

// key writes k, a key already encoded as a MessagePack string, and
// counts it; the value follows. Every k parameter of enc's methods is
// such a key.
//
//go:noinline
func (e *enc) key(k string) []byte { return e.put(k) }

// put is key for enc's own methods, which inline it: a call fewer per
// field.
func (e *enc) put(k string) []byte {
	e.n++
	e.b = append(e.b, k...)
	return e.b
}

//go:noinline
func (e *enc) str(k, v string) { e.b = msgp.AppendString(e.put(k), v) }

// text writes k and v as a string.
//
//go:noinline
func (e *enc) text(k string, v []byte) { e.b = appendStr(e.put(k), v) }

// bool and null write k and a one-byte value through tag: one function
// for both, each 1 KB of WebAssembly code with its inlined appends
// (issue 18).
func (e *enc) bool(k string, v bool) {
	c := byte(0xc2) // msgp's false; true is 0xc3
	if v {
		c++
	}
	e.tag(k, c)
}

func (e *enc) null(k string) { e.tag(k, 0xc0) }

// tag writes k and c, a value of one byte.
//
//go:noinline
func (e *enc) tag(k string, c byte) { e.b = append(e.put(k), c) }

//go:noinline
func (e *enc) int(k string, v int64) { e.b = appendInt64(e.put(k), v) }

//go:noinline
func (e *enc) uint(k string, v uint64) {
	e.b = appendUint64(e.put(k), v)
}

//go:noinline
func (e *enc) float(k string, v float64) { e.b = appendFloat64(e.put(k), v) }

//go:noinline
func (e *enc) bin(k string, v []byte) { e.b = msgp.AppendBytes(e.put(k), v) }

// obj writes k and v, a struct field: one call where the key and the
// value are two.
//
//go:noinline
func (e *enc) obj(k string, v msgp.Marshaler) { e.b, _ = v.MarshalMsg(e.key(k)) }

// err writes k and v, nil as MessagePack nil: a result's error, one
// call where the test, the key and the value or the nil are three.
//
//go:noinline
func (e *enc) err(k string, v *Error) {
	if v == nil {
		e.null(k)
		return
	}
	e.b, _ = v.MarshalMsg(e.key(k))
}

//go:noinline
func (e *enc) raw(k string, v Raw) { e.b, _ = v.MarshalMsg(e.put(k)) }

// array writes k and the header of an array of n elements, which the
// caller writes next.
//
//go:noinline
func (e *enc) array(k string, n int) {
	e.b = appendArrayHeader(e.put(k), uint32(n))
}

//go:noinline
func (e *enc) strs(k string, v []string) {
	e.array(k, len(v))
	for _, s := range v {
		e.b = msgp.AppendString(e.b, s)
	}
}

//go:noinline
func (e *enc) int32s(k string, v []int32) {
	e.array(k, len(v))
	for _, x := range v {
		e.b = appendInt64(e.b, int64(x))
	}
}

//go:noinline
func (e *enc) int64s(k string, v []int64) {
	e.array(k, len(v))
	for _, x := range v {
		e.b = appendInt64(e.b, x)
	}
}

//go:noinline
func (e *enc) uint64s(k string, v []uint64) {
	e.array(k, len(v))
	for _, x := range v {
		e.b = appendUint64(e.b, x)
	}
}

//go:noinline
func (e *enc) bins(k string, v [][]byte) {
	e.array(k, len(v))
	for _, x := range v {
		e.b = msgp.AppendBytes(e.b, x)
	}
}

//go:noinline
func (e *enc) raws(k string, v []Raw) {
	e.array(k, len(v))
	for _, x := range v {
		e.b, _ = x.MarshalMsg(e.b)
	}
}
