package pcp

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"testing"

	"sigs.k8s.io/randfill"
)

// fuzzTypes are the type codes the fuzz targets pick from by one byte.
var fuzzTypes = []Type{Type32, TypeU32, Type64, TypeU64, TypeFloat, TypeDouble, TypeString,
	TypeAggregate, TypeAggregateStatic, TypeEvent, TypeHighResEvent, TypeNoSupport, TypeUnknown, 11}

// addExtractSeeds seeds from the libpcp oracle's inputs: a selector byte
// (insitu flag, input and output type) and the value bytes.
func addExtractSeeds(f *testing.F) {
	index := func(t Type) byte {
		for i, x := range fuzzTypes {
			if x == t {
				return byte(i)
			}
		}
		return 0
	}
	for i, l := range readOracle(f, "libpcp-extract.txt") {
		if i%7 != 0 {
			continue // a spread of the oracle's inputs is enough
		}
		var data []byte
		if len(l.fields) > 4 {
			data, _ = hex.DecodeString(l.fields[4])
		}
		in, out := Type(mustInt(f, l.fields[2])), Type(mustInt(f, l.fields[3]))
		sel := index(in)<<4 | index(out)&0xf
		f.Add(l.fields[1] == "0", sel, data)
	}
}

func FuzzExtract(f *testing.F) {
	addExtractSeeds(f)
	f.Fuzz(func(t *testing.T, insitu bool, sel byte, data []byte) {
		in := fuzzTypes[int(sel>>4)%len(fuzzTypes)]
		out := fuzzTypes[int(sel&0xf)%len(fuzzTypes)]
		r := Raw{Block: data[:len(data):len(data)]}
		if insitu {
			if len(data) < 4 {
				return
			}
			r = Raw{Insitu: true, Word: binary.BigEndian.Uint32(data)}
		}
		a, err := Extract(r, in, out)
		if err != nil {
			if !errors.Is(err, ErrConv) && !errors.Is(err, ErrTrunc) && !errors.Is(err, ErrSign) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if a.Type() != out {
			t.Fatalf("asked for %v, got %v", out, a.Type())
		}
		if txt, _ := a.AppendText([]byte("x")); string(txt) != "x"+a.String() || len(txt) == 1 {
			t.Fatalf("AppendText %q, String %q", txt, a.String())
		}
		// Same-type extraction re-encodes to the input bytes.
		if in == out {
			switch {
			case insitu:
				if in != TypeUnknown && a.Uint32() != r.Word {
					t.Fatalf("insitu %#x came back as %#x", r.Word, a.Uint32())
				}
			case in.Size() != 0:
				if !bytes.Equal(appendAtom(nil, a), r.Block) {
					t.Fatalf("%v %x came back as %x", in, r.Block, appendAtom(nil, a))
				}
			case in == TypeString:
				if !bytes.HasPrefix(r.Block, a.Bytes()) || bytes.IndexByte(a.Bytes(), 0) >= 0 {
					t.Fatalf("string %q from %x", a.Bytes(), r.Block)
				}
			case in == TypeAggregate:
				if !bytes.Equal(a.Bytes(), r.Block) {
					t.Fatal("aggregate changed")
				}
			}
		}
	})
}

// appendAtom appends a fixed-size atom's wire bytes (big-endian).
func appendAtom(b []byte, a Atom) []byte {
	if a.Type().Size() == 4 {
		return binary.BigEndian.AppendUint32(b, a.Uint32())
	}
	return binary.BigEndian.AppendUint64(b, a.Uint64())
}

func FuzzConvScale(f *testing.F) {
	for i, l := range readOracle(f, "libpcp-convscale.txt") {
		if i%10 != 0 {
			continue
		}
		raw, _ := hex.DecodeString(l.fields[2])
		var v uint64
		for _, c := range raw {
			v = v<<8 | uint64(c)
		}
		f.Add(byte(mustInt(f, l.fields[1])), v, mustHex32(f, l.fields[3]), mustHex32(f, l.fields[4]))
	}
	f.Fuzz(func(t *testing.T, typ byte, v uint64, in, out uint32) {
		at := fuzzTypes[int(typ)%8]
		if at.Size() == 4 {
			v &= math.MaxUint32
		}
		a := testAtom(at, v, nil)
		res, err := ConvScale(a, Units(in), Units(out))
		if err != nil {
			if !errors.Is(err, ErrConv) && !errors.Is(err, ErrUnit) {
				t.Fatalf("unexpected error %v", err)
			}
			if err == ErrUnit && Units(in)&0xfff00000 != Units(out)&0xfff00000 {
				t.Fatal("different dimensions must fail with ErrConv first")
			}
			return
		}
		if res.Type() != a.Type() {
			t.Fatalf("type %v became %v", a.Type(), res.Type())
		}
		if Units(in)&0xfff00000 != Units(out)&0xfff00000 {
			t.Fatal("converted between different dimensions")
		}
		// Identical scales leave the value alone (NaN stays NaN).
		if in&0xffffff00 == out&0xffffff00 && res.num != a.num {
			t.Fatalf("identity conversion changed %#x to %#x", a.num, res.num)
		}
	})
}

func FuzzUnitsString(f *testing.F) {
	for i, l := range readOracle(f, "libpcp-units.txt") {
		if i%50 == 0 {
			f.Add(mustHex32(f, l.fields[1]))
		}
	}
	f.Fuzz(func(t *testing.T, w uint32) {
		u := Units(w)
		s := u.String()
		b, err := u.AppendText([]byte("x"))
		if err != nil || string(b) != "x"+s {
			t.Fatalf("AppendText %q, String %q", b, s)
		}
		// libpcp's pmUnitsStr buffer is 60 bytes.
		if len(s) >= 60 || len(s) > 0 && (s[0] == ' ' || s[len(s)-1] == ' ') {
			t.Fatalf("bad text %q", s)
		}
		dimless := u.DimSpace() == 0 && u.DimTime() == 0 && u.DimCount() == 0
		if (s == "") != (dimless && u.ScaleCount() == 0) {
			t.Fatalf("%#08x: %q", w, s)
		}
		// The extra 7.2 bits never change the 6.x text.
		if (u &^ 0xff).String() != s {
			t.Fatal("low byte changed the text")
		}
	})
}

// wireValues is filled by randfill: one value of every extractable type.
type wireValues struct {
	I32 int32
	U32 uint32
	I64 int64
	U64 uint64
	F32 float32
	F64 float64
	Str []byte
	Agg []byte
	V1  int32
}

// FuzzRoundTrip fills wireValues, encodes each value as it travels (insitu
// word or big-endian block, strings with their NUL), extracts it with its
// own type and compares; and checks the V1 renumbering both ways.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("seed"))
	f.Add(make([]byte, 64))
	f.Fuzz(func(t *testing.T, data []byte) {
		var v wireValues
		randfill.NewFromGoFuzz(data).NilChance(0).Fill(&v)

		check := func(r Raw, typ Type, want uint64) {
			t.Helper()
			a, err := Extract(r, typ, typ)
			if err != nil || a.num != want {
				t.Fatalf("%v: got %#x, %v; want %#x", typ, a.num, err, want)
			}
		}
		check(Raw{Insitu: true, Word: uint32(v.I32)}, Type32, uint64(uint32(v.I32)))
		check(Raw{Insitu: true, Word: v.U32}, TypeU32, uint64(v.U32))
		check(Raw{Block: binary.BigEndian.AppendUint64(nil, uint64(v.I64))}, Type64, uint64(v.I64))
		check(Raw{Block: binary.BigEndian.AppendUint64(nil, v.U64)}, TypeU64, v.U64)
		check(Raw{Block: binary.BigEndian.AppendUint32(nil, math.Float32bits(v.F32))}, TypeFloat, uint64(math.Float32bits(v.F32)))
		check(Raw{Block: binary.BigEndian.AppendUint64(nil, math.Float64bits(v.F64))}, TypeDouble, math.Float64bits(v.F64))

		s, err := Extract(Raw{Block: append(append([]byte{}, v.Str...), 0)}, TypeString, TypeString)
		want := v.Str
		if i := bytes.IndexByte(want, 0); i >= 0 {
			want = want[:i]
		}
		if err != nil || !bytes.Equal(s.Bytes(), want) {
			t.Fatalf("string %q came back as %q, %v", want, s.Bytes(), err)
		}
		g, err := Extract(Raw{Block: v.Agg}, TypeAggregate, TypeAggregate)
		if err != nil || !bytes.Equal(g.Bytes(), v.Agg) {
			t.Fatal("aggregate changed")
		}

		c := Code(v.V1)
		if (c <= errBase || c > v1Base) && FromV1(ToV1(c)) != c {
			t.Fatalf("code %d: V1 %d back %d", c, ToV1(c), FromV1(ToV1(c)))
		}
	})
}
