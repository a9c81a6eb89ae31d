package schema

import "github.com/tinylib/msgp/msgp"

// Map writes one MessagePack map: for the MarshalMsg methods that encgen
// generates (the *_enc.go files) and for the writers that produce the
// same bytes in place (package render). Each method writes one key and
// its value with msgp's append functions and counts the key, and End
// puts the count into the header BeginMap reserved. B is the bytes
// written so far and N the keys counted, for writers that append a
// value or a run of keys themselves.
//
// One call per field, and every method kept out of line: module size
// (an inline append of a key costs a store per byte in WebAssembly, and
// an inlined method would copy its body into every MarshalMsg); see
// wasm/size.
type Map struct {
	B    []byte
	at   int    // where the map header is
	N    uint32 // keys written
	wide bool   // the header has room for a map16: the type has over 15 fields
}

// BeginMap reserves the header of a map of up to fields keys at the end
// of b: one byte when a fixmap can hold them all, three otherwise.
//
//go:noinline
func BeginMap(b []byte, fields int) Map {
	e := Map{B: b, at: len(b), wide: fields > 15}
	if e.wide {
		e.B = append(e.B, 0xde, 0, 0)
	} else {
		e.B = append(e.B, 0x80)
	}
	return e
}

// end writes the header with the count of keys, in msgp's shortest
// form: a wide header with 15 keys or fewer becomes a fixmap, and what
// follows it moves back two bytes.
//
//go:noinline
func (e *Map) End() []byte {
	switch {
	case e.N <= 15:
		e.B[e.at] = 0x80 | byte(e.N)
		if e.wide {
			copy(e.B[e.at+1:], e.B[e.at+3:])
			e.B = e.B[:len(e.B)-2]
		}
	default:
		e.B[e.at+1], e.B[e.at+2] = byte(e.N>>8), byte(e.N)
	}
	return e.B
}

// key writes k, a key already encoded as a MessagePack string, and
// counts it; the value follows. Every k parameter of Map's methods is
// such a key.
//
//go:noinline
func (e *Map) Key(k string) []byte { return e.Put(k) }

// Put is Key inlined: for Map's own methods and for writers that write a
// key and then its value themselves, a call fewer per field.
func (e *Map) Put(k string) []byte {
	e.N++
	e.B = append(e.B, k...)
	return e.B
}

//go:noinline
func (e *Map) Str(k, v string) { e.B = msgp.AppendString(e.Put(k), v) }

// text writes k and v as a string.
//
//go:noinline
func (e *Map) Text(k string, v []byte) { e.B = AppendStr(e.Put(k), v) }

// Bool writes k and v. Bool and Null write their one-byte value through
// Tag: one out-of-line function for both (module size).
func (e *Map) Bool(k string, v bool) {
	c := byte(0xc2) // msgp's false; true is 0xc3
	if v {
		c++
	}
	e.Tag(k, c)
}

// Null writes k and MessagePack nil.
func (e *Map) Null(k string) { e.Tag(k, 0xc0) }

// tag writes k and c, a value of one byte.
//
//go:noinline
func (e *Map) Tag(k string, c byte) { e.B = append(e.Put(k), c) }

//go:noinline
func (e *Map) Int(k string, v int64) { e.B = AppendInt64(e.Put(k), v) }

//go:noinline
func (e *Map) Uint(k string, v uint64) {
	e.B = AppendUint64(e.Put(k), v)
}

//go:noinline
func (e *Map) Float(k string, v float64) { e.B = AppendFloat64(e.Put(k), v) }

//go:noinline
func (e *Map) Bin(k string, v []byte) { e.B = msgp.AppendBytes(e.Put(k), v) }

// obj writes k and v, a struct field: one call where the key and the
// value are two.
//
//go:noinline
func (e *Map) Obj(k string, v msgp.Marshaler) { e.B, _ = v.MarshalMsg(e.Key(k)) }

// err writes k and v, nil as MessagePack nil: a result's error, one
// call where the test, the key and the value or the nil are three.
//
//go:noinline
func (e *Map) Err(k string, v *Error) {
	if v == nil {
		e.Null(k)
		return
	}
	e.B, _ = v.MarshalMsg(e.Key(k))
}

//go:noinline
func (e *Map) Raw(k string, v Raw) { e.B, _ = v.MarshalMsg(e.Put(k)) }

// array writes k and the header of an array of n elements, which the
// caller writes next.
//
//go:noinline
func (e *Map) Array(k string, n int) {
	e.B = AppendArrayHeader(e.Put(k), uint32(n))
}

//go:noinline
func (e *Map) Strs(k string, v []string) {
	e.Array(k, len(v))
	for _, s := range v {
		e.B = msgp.AppendString(e.B, s)
	}
}

//go:noinline
func (e *Map) Int32s(k string, v []int32) {
	e.Array(k, len(v))
	for _, x := range v {
		e.B = AppendInt64(e.B, int64(x))
	}
}

//go:noinline
func (e *Map) Int64s(k string, v []int64) {
	e.Array(k, len(v))
	for _, x := range v {
		e.B = AppendInt64(e.B, x)
	}
}

//go:noinline
func (e *Map) Uint64s(k string, v []uint64) {
	e.Array(k, len(v))
	for _, x := range v {
		e.B = AppendUint64(e.B, x)
	}
}

//go:noinline
func (e *Map) Bins(k string, v [][]byte) {
	e.Array(k, len(v))
	for _, x := range v {
		e.B = msgp.AppendBytes(e.B, x)
	}
}

//go:noinline
func (e *Map) Raws(k string, v []Raw) {
	e.Array(k, len(v))
	for _, x := range v {
		e.B, _ = x.MarshalMsg(e.B)
	}
}
