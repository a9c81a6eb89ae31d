package dlt

import (
	"bytes"
	"encoding/hex"
	"math"
	"strings"
	"testing"
)

// dhex decodes hex with spaces and '|' as readability separators.
func dhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.NewReplacer(" ", "", "|", "").Replace(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestConsumeArgLayouts decodes hand-written arguments of every type in
// both byte orders (layouts per AUTOSAR PRS and docs/dlt-framing.md §6).
func TestConsumeArgLayouts(t *testing.T) {
	tests := []struct {
		name     string
		big      bool
		in       string
		kind     Kind
		bits     int
		text     string
		uint     uint64
		hi       uint64
		float    float64
		nm, unit string
	}{
		{"bool LE", false, "11000000 | 01", KindBool, 8, "1", 0, 0, 0, "", ""},
		{"bool BE vari", true, "00000811 | 0003 | 6f6b00 | 00", KindBool, 8, "0", 0, 0, 0, "ok", ""},
		{"sint8", false, "21000000 | fb", KindSigned, 8, "-5", ^uint64(4), ^uint64(0), 0, "", ""},
		{"sint16 BE", true, "00000022 | ff85", KindSigned, 16, "-123", ^uint64(122), ^uint64(0), 0, "", ""},
		{"sint32 LE", false, "23000000 | 00000080", KindSigned, 32, "-2147483648", 1<<64 - 1<<31, ^uint64(0), 0, "", ""},
		{"sint64 BE", true, "00000024 | 7fffffffffffffff", KindSigned, 64, "9223372036854775807", 1<<63 - 1, 0, 0, "", ""},
		{"sint128 LE", false, "25000000 | fbffffffffffffff ffffffffffffffff", KindSigned, 128,
			"fb ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff", ^uint64(4), ^uint64(0), 0, "", ""},
		{"uint8", false, "41000000 | ff", KindUnsigned, 8, "255", 255, 0, 0, "", ""},
		{"uint16 LE", false, "42000000 | 3412", KindUnsigned, 16, "4660", 0x1234, 0, 0, "", ""},
		{"uint32 BE", true, "00000043 | 12345678", KindUnsigned, 32, "305419896", 0x12345678, 0, 0, "", ""},
		{"uint64 LE", false, "44000000 | efcdab9078563412", KindUnsigned, 64, "1311768467294899695", 0x1234567890abcdef, 0, 0, "", ""},
		{"uint128 BE", true, "00000045 | 0123456789abcdef fedcba9876543210", KindUnsigned, 128,
			"01 23 45 67 89 ab cd ef fe dc ba 98 76 54 32 10", 0xfedcba9876543210, 0x0123456789abcdef, 0, "", ""},
		{"uint16 hex LE", false, "42000100 | efcd", KindUnsigned, 16, "0xcdef", 0xcdef, 0, 0, "", ""},
		{"uint16 hex BE (shown swapped, like dlt-convert)", true, "00010042 | cdef", KindUnsigned, 16, "0xefcd", 0xcdef, 0, 0, "", ""},
		{"uint8 bin", false, "41800100 | 05", KindUnsigned, 8, "0b0000 0101", 5, 0, 0, "", ""},
		{"uint16 bin BE (shown swapped)", true, "00018042 | 0105", KindUnsigned, 16, "0b0000 0101 0000 0001", 0x105, 0, 0, "", ""},
		{"uint32 vari LE", false, "43080000 | 0200 0300 | 6e00 6d7300 | 2a000000", KindUnsigned, 32, "42", 42, 0, 0, "n", "ms"},
		{"sint32 fixp LE", false, "23100000 | 0000003f | fdffffff | 2a000000", KindSigned, 32, "42", 42, 0, 0, "", ""},
		{"float16 LE", false, "82000000 | 003e", KindFloat, 16, "00 3e", 0, 0, 1.5, "", ""},
		{"float32 BE", true, "00000083 | 3fc00000", KindFloat, 32, "1.5", 0, 0, 1.5, "", ""},
		{"float64 LE", false, "84000000 | 000000000000f8bf", KindFloat, 64, "-1.5", 0, 0, -1.5, "", ""},
		{"float64 vari BE", true, "00000884 | 0002 0002 | 7800 6d00 | 4008000000000000", KindFloat, 64, "3", 0, 0, 3, "x", "m"},
		{"float128 BE", true, "00000085 | 3fff8000000000000000000000000000", KindFloat, 128,
			"3f ff 80 00 00 00 00 00 00 00 00 00 00 00 00 00", 0, 0, 1.5, "", ""},
		{"float128 LE", false, "85000000 | 0000000000000000 000000000000ffbf", KindFloat, 128,
			"00 00 00 00 00 00 00 00 00 00 00 00 00 00 ff bf", 0, 0, -1, "", ""},
		{"string LE", false, "00020000 | 0400 | 4e455700", KindString, 0, "NEW", 0, 0, 0, "", ""},
		{"string BE", true, "00000200 | 0004 | 4e455700", KindString, 0, "NEW", 0, 0, 0, "", ""},
		{"string utf8 crlf", false, "00820000 | 0500 | c3bc0d0a00", KindString, 0, "ü  ", 0, 0, 0, "", ""},
		{"string len 0", false, "00020000 | 0000", KindString, 0, "", 0, 0, 0, "", ""},
		{"string len 1", false, "00020000 | 0100 | 00", KindString, 0, "", 0, 0, 0, "", ""},
		{"string no NUL", false, "00020000 | 0200 | 6869", KindString, 0, "hi", 0, 0, 0, "", ""},
		{"string vari", false, "000a0000 | 0200 | 0300 | 6e6d00 | 7600", KindString, 0, "v", 0, 0, 0, "nm", ""},
		{"raw", false, "00040000 | 0300 | 0102ab", KindRaw, 0, "01'02'ab", 0, 0, 0, "", ""},
		{"raw vari BE", true, "00000c00 | 0001 | 0002 | 7200 | ff", KindRaw, 0, "ff", 0, 0, 0, "r", ""},
		{"trace", false, "00200000 | 0300 | 666e00", KindTrace, 0, "fn", 0, 0, 0, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := dhex(t, tt.in)
			a, n, err := ConsumeArg(in, orderOf(tt.big))
			if err != nil {
				t.Fatal(err)
			}
			if n != len(in) {
				t.Errorf("consumed %d of %d bytes", n, len(in))
			}
			if a.Kind() != tt.kind || a.Bits() != tt.bits || a.Order() != orderOf(tt.big) {
				t.Errorf("kind %v bits %d big %v, want %v %d %v", a.Kind(), a.Bits(), a.Order(), tt.kind, tt.bits, tt.big)
			}
			txt, _ := a.AppendText(nil)
			if string(txt) != tt.text {
				t.Errorf("text %q, want %q", txt, tt.text)
			}
			if tt.kind == KindSigned || tt.kind == KindUnsigned {
				hi, lo := a.Uint128()
				if lo != tt.uint || hi != tt.hi || a.Uint() != tt.uint {
					t.Errorf("value %#x:%#x (Uint %#x), want %#x:%#x", hi, lo, a.Uint(), tt.hi, tt.uint)
				}
			}
			if tt.kind == KindFloat && a.Float() != tt.float {
				t.Errorf("float %v, want %v", a.Float(), tt.float)
			}
			if string(a.Name()) != tt.nm || string(a.Unit()) != tt.unit || a.HasVarInfo() != (tt.nm != "") {
				t.Errorf("name %q unit %q vari %v, want %q %q", a.Name(), a.Unit(), a.HasVarInfo(), tt.nm, tt.unit)
			}
			// Re-encoding the decoded argument gives a decoder-equal argument.
			out, err := AppendArg(nil, specOf(a), orderOf(tt.big))
			if err != nil {
				t.Fatal(err)
			}
			b, _, err := ConsumeArg(out, orderOf(tt.big))
			if err != nil {
				t.Fatal(err)
			}
			txt2, _ := b.AppendText(nil)
			if !bytes.Equal(txt, txt2) || b.TypeInfo() != a.TypeInfo() || !bytes.Equal(a.Name(), b.Name()) {
				t.Errorf("re-encoded %x decodes to %q info %#x", out, txt2, b.TypeInfo())
			}
		})
	}
}

func TestFixedPoint(t *testing.T) {
	for _, tt := range []struct {
		in  string
		big bool
	}{
		{"23100000 | 0000003f | fdffffff | 2a000000", false},
		{"00001024 | 3f000000 | fffffffffffffffd | 000000000000002a", true},
		{"25100000 | 0000003f | fdffffffffffffffffffffffffffffff | 2a000000000000000000000000000000", false},
		{"00001021 | 3f000000 | fffffffd | 2a", true},
	} {
		a, _, err := ConsumeArg(dhex(t, tt.in), orderOf(tt.big))
		if err != nil {
			t.Fatal(err)
		}
		if !a.HasFixedPoint() || a.Quantization() != 0.5 || a.FixedOffset() != -3 || a.Int() != 42 {
			t.Errorf("%s: fixp %v q %v off %d value %d", tt.in, a.HasFixedPoint(), a.Quantization(), a.FixedOffset(), a.Int())
		}
	}
}

func TestFloatConversions(t *testing.T) {
	for _, f := range []float64{0, 1, -1, 1.5, 65504, 6.103515625e-05, 5.960464477539063e-08, -2.5,
		math.Inf(1), math.Inf(-1)} {
		if got := float16to64(float64to16(f)); got != f {
			t.Errorf("float16 round trip of %v gave %v", f, got)
		}
	}
	if !math.IsNaN(float16to64(float64to16(math.NaN()))) {
		t.Error("float16 NaN")
	}
	// IEEE 754 binary16 reference encodings.
	for f, h := range map[float64]uint16{1: 0x3c00, -2: 0xc000, 65504: 0x7bff, 1e6: 0x7c00, 5.960464477539063e-08: 0x0001, 0.333251953125: 0x3555} {
		if got := float64to16(f); got != h {
			t.Errorf("float64to16(%v) = %#04x, want %#04x", f, got, h)
		}
	}
	for _, f := range []float64{0, 1, -1, 1.5, math.MaxFloat64, math.SmallestNonzeroFloat64, 1e-310, -123456.789,
		math.Inf(1), math.Inf(-1)} {
		hi, lo := float64to128(f)
		if got := float128to64(hi, lo); got != f {
			t.Errorf("float128 round trip of %v gave %v (%#x %#x)", f, got, hi, lo)
		}
	}
	if hi, lo := float64to128(1.5); hi != 0x3fff800000000000 || lo != 0 {
		t.Errorf("float64to128(1.5) = %#x %#x", hi, lo)
	}
}
