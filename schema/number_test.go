package schema

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tinylib/msgp/msgp"
)

// TestNumbers checks number.go's appends against msgp's, whose forms the
// schema's readers expect, at every boundary between forms and at random
// values of every magnitude.
func TestNumbers(t *testing.T) {
	ints := []int64{math.MinInt64, math.MinInt32 - 1, math.MinInt32, math.MinInt32 + 1, math.MinInt16 - 1, math.MinInt16,
		math.MinInt8 - 1, math.MinInt8, -33, -32, -31, -1, 0, 1, 127, 128, 255, 256, math.MaxInt16, math.MaxInt16 + 1,
		math.MaxUint16, math.MaxUint16 + 1, math.MaxInt32, math.MaxInt32 + 1, math.MaxUint32, math.MaxUint32 + 1, math.MaxInt64}
	r := rand.New(rand.NewPCG(18, 7))
	for range 20000 {
		ints = append(ints, int64(r.Uint64())>>r.IntN(64))
	}
	check := func(what string, v any, got, want []byte) {
		t.Helper()
		if !bytes.Equal(got, want) {
			t.Fatalf("%s(%v) = % x, msgp writes % x", what, v, got, want)
		}
	}
	for _, v := range ints {
		check("AppendInt32", int32(v), AppendInt32([]byte{0xc0}, int32(v)), msgp.AppendInt64([]byte{0xc0}, int64(int32(v))))
		check("AppendInt64", v, AppendInt64([]byte{0xc0}, v), msgp.AppendInt64([]byte{0xc0}, v))
		check("AppendUint64", uint64(v), AppendUint64([]byte{0xc0}, uint64(v)), msgp.AppendUint64([]byte{0xc0}, uint64(v)))
		check("AppendArrayHeader", uint32(v), AppendArrayHeader([]byte{0xc0}, uint32(v)), msgp.AppendArrayHeader([]byte{0xc0}, uint32(v)))
		f := math.Float64frombits(uint64(v))
		check("AppendFloat64", f, AppendFloat64([]byte{0xc0}, f), msgp.AppendFloat64([]byte{0xc0}, f))
		// AppendFields' numbers, as ints, uints and bools, after keys.
		w := [8]uint64{uint64(v), uint64(v), uint64(v) & 1}
		want := msgp.AppendUint64(append(msgp.AppendInt64([]byte("\xa1i"), v), "\xa2uu"...), uint64(v))
		want = msgp.AppendBool(append(want, "\xa1b"...), v&1 != 0)
		check("AppendFields", v, AppendFields(nil, "\xa1i\xa2uu\xa1b", &w, FieldInt|FieldUint<<2|FieldBool<<4), want)
	}
	// Strings of every length up to str16's largest and past it, and one
	// of 100,000 bytes (str32).
	s := bytes.Repeat([]byte("perfwire"), 100000/8)
	for _, n := range []int{0, 1, 30, 31, 32, 33, 255, 256, 257, math.MaxUint16, math.MaxUint16 + 1, len(s)} {
		check("AppendStr", n, AppendStr([]byte{0xc0}, s[:n]), msgp.AppendStringFromBytes([]byte{0xc0}, s[:n]))
	}
}
