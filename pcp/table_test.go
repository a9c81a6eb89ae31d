package pcp

import (
	"errors"
	"strconv"
	"testing"

	"github.com/perfwire/perfwire/internal/wire"
)

// Vectors of docs/pcp-pdu.md §6.1, checked there against libpcp 6.0.3.
func TestIDInDomVectors(t *testing.T) {
	if id := NewID(29, 0, 11); id != 0x0740000b || id.String() != "29.0.11" {
		t.Errorf("NewID(29,0,11) = %#x %q", uint32(id), id)
	}
	if id := NewID(511, 4095, 1023); id != 0x7fffffff || id.Domain() != 511 || id.Cluster() != 4095 || id.Item() != 1023 {
		t.Errorf("NewID(511,4095,1023) = %#x", uint32(id))
	}
	if in := NewInDom(29, 1); in != 0x07400001 || in.String() != "29.1" {
		t.Errorf("NewInDom(29,1) = %#x %q", uint32(in), in)
	}
	if IDNull.String() != "PM_ID_NULL" || InDomNull.String() != "PM_INDOM_NULL" {
		t.Error("null identifiers")
	}
}

// TestIDText checks ID's digits, written without strconv, against
// strconv's decimal form for every domain, cluster and item at and around
// each digit count's boundary (the three fields are independent).
func TestIDText(t *testing.T) {
	vals := []uint32{0, 1, 9, 10, 11, 99, 100, 101, 511, 999, 1000, 1001, 1023, 4094, 4095}
	for _, d := range vals {
		for _, c := range vals {
			for _, i := range vals {
				d, c, i := d&0x1ff, c&0xfff, i&0x3ff
				want := strconv.Itoa(int(d)) + "." + strconv.Itoa(int(c)) + "." + strconv.Itoa(int(i))
				if id := NewID(d, c, i); id.String() != want {
					t.Fatalf("NewID(%d, %d, %d).String() = %q, want %q", d, c, i, id.String(), want)
				}
			}
		}
	}
}

// docs/pcp-pdu.md §8.1 item 1 and the §6.4 conversion table: malformed or
// unconvertible values fail with the error kind libpcp returns.
func TestExtractBadInput(t *testing.T) {
	u64 := []byte{0, 0, 0, 1, 0, 0, 0, 0}
	tests := []struct {
		name    string
		r       Raw
		in, out Type
		want    error
	}{
		{"64 block of 4 bytes", Raw{Block: u64[:4]}, Type64, Type64, ErrConv},
		{"U64 block of 7 bytes", Raw{Block: u64[:7]}, TypeU64, TypeU64, ErrConv},
		{"DOUBLE block of 9 bytes", Raw{Block: append(u64, 0)}, TypeDouble, TypeDouble, ErrConv},
		{"DOUBLE empty block", Raw{Block: nil}, TypeDouble, TypeDouble, ErrConv},
		{"FLOAT block of 3 bytes", Raw{Block: u64[:3]}, TypeFloat, TypeFloat, ErrConv},
		{"FLOAT block of 8 bytes", Raw{Block: u64}, TypeFloat, TypeFloat, ErrConv},
		{"64 insitu", Raw{Insitu: true, Word: 1}, Type64, Type64, ErrConv},
		{"STRING insitu", Raw{Insitu: true, Word: 1}, TypeString, TypeString, ErrConv},
		{"32 in a block", Raw{Block: u64[:4]}, Type32, Type32, ErrConv},
		{"STRING to 32", Raw{Block: []byte("12\x00")}, TypeString, Type32, ErrConv},
		{"AGGREGATE to STRING", Raw{Block: []byte("ab")}, TypeAggregate, TypeString, ErrConv},
		{"EVENT", Raw{Block: u64}, TypeEvent, TypeEvent, ErrConv},
		{"HIGHRES_EVENT", Raw{Block: u64}, TypeHighResEvent, TypeHighResEvent, ErrConv},
		{"AGGREGATE_STATIC", Raw{Block: u64}, TypeAggregateStatic, TypeAggregateStatic, ErrConv},
		{"unknown type in a block", Raw{Block: u64[:4]}, TypeUnknown, Type32, ErrConv},
		{"32 to EVENT", Raw{Insitu: true, Word: 1}, Type32, TypeEvent, ErrConv},
		{"32 to NOSUPPORT", Raw{Insitu: true, Word: 1}, Type32, TypeNoSupport, ErrConv},
		{"negative 32 to U32", Raw{Insitu: true, Word: 0xffffffff}, Type32, TypeU32, ErrSign},
		{"negative 32 to U64", Raw{Insitu: true, Word: 0x80000000}, Type32, TypeU64, ErrSign},
		{"U32 above 2^31-1 to 32", Raw{Insitu: true, Word: 0x80000000}, TypeU32, Type32, ErrTrunc},
		{"64 above 2^31-1 to 32", Raw{Block: u64[:8]}, Type64, Type32, ErrTrunc},
		{"negative 64 to U32", Raw{Block: []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}}, Type64, TypeU32, ErrSign},
		{"U64 2^63 to 64", Raw{Block: []byte{0x80, 0, 0, 0, 0, 0, 0, 0}}, TypeU64, Type64, ErrTrunc},
		{"DOUBLE 2^31 to 32", Raw{Block: []byte{0x41, 0xe0, 0, 0, 0, 0, 0, 0}}, TypeDouble, Type32, ErrTrunc},
		{"DOUBLE -0.5 to U32", Raw{Block: []byte{0xbf, 0xe0, 0, 0, 0, 0, 0, 0}}, TypeDouble, TypeU32, ErrSign},
		{"FLOAT +Inf to U64", Raw{Block: []byte{0x7f, 0x80, 0, 0}}, TypeFloat, TypeU64, ErrTrunc},
		{"insitu FLOAT -1 to U32", Raw{Insitu: true, Word: 0xbf800000}, TypeFloat, TypeU32, ErrSign},
	}
	for _, tt := range tests {
		a, err := Extract(tt.r, tt.in, tt.out)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: got %v (%v), want %v", tt.name, err, a.Type(), tt.want)
		}
	}
}

func TestConvScaleBadInput(t *testing.T) {
	bytesPerSec := NewUnits(1, -1, 0, SpaceByte, TimeSec, 0)
	tests := []struct {
		name    string
		a       Atom
		in, out Units
		want    error
	}{
		{"space against time", AtomInt32(1), NewUnits(1, 0, 0, 0, 0, 0), NewUnits(0, 1, 0, 0, 0, 0), ErrConv},
		{"different powers", AtomInt32(1), NewUnits(0, 1, 0, 0, 0, 0), NewUnits(0, 2, 0, 0, 0, 0), ErrConv},
		{"string value", AtomString([]byte("x")), bytesPerSec, bytesPerSec, ErrConv},
		{"aggregate value", AtomAggregate(nil), bytesPerSec, bytesPerSec, ErrConv},
		{"Zbyte input", AtomInt32(1), NewUnits(1, 0, 0, SpaceZByte, 0, 0), NewUnits(1, 0, 0, 0, 0, 0), ErrUnit},
		{"space scale 15 output", AtomInt32(1), NewUnits(1, 0, 0, 0, 0, 0), NewUnits(1, 0, 0, 15, 0, 0), ErrUnit},
		{"time scale 6", AtomInt32(1), NewUnits(0, 1, 0, 0, 6, 0), NewUnits(0, 1, 0, 0, 0, 0), ErrUnit},
		{"divisor wraps to zero", AtomInt64(1), NewUnits(2, 0, 0, SpaceByte, 0, 0), NewUnits(2, 0, 0, SpaceEByte, 0, 0), ErrConv},
	}
	for _, tt := range tests {
		if _, err := ConvScale(tt.a, tt.in, tt.out); !errors.Is(err, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, err, tt.want)
		}
	}
	// A scale is ignored where its dimension is 0 (docs/pcp-pdu.md §6.3).
	if a, err := ConvScale(AtomInt32(7), NewUnits(0, 0, 1, 15, 15, 0), NewUnits(0, 0, 1, 0, 0, 0)); err != nil || a.Int32() != 7 {
		t.Errorf("meaningless scales: %v %v", a.Int32(), err)
	}
}

// TestExtractErrorKinds: Extract's failures are *ParseError values whose
// kind matches internal/wire's shared kind (the wasm ABI's code) and the
// PM_ERR_* code libpcp returns, and whose text is pmErrStr's.
func TestExtractErrorKinds(t *testing.T) {
	for _, tt := range []struct {
		name    string
		r       Raw
		in, out Type
		code    Code
		kind    *wire.Kind
		field   string
	}{
		{"STRING to 32", Raw{Block: []byte("x\x00")}, TypeString, Type32, ErrConv, wire.ErrType, "type"},
		{"insitu 64", Raw{Insitu: true, Word: 1}, Type64, Type64, ErrConv, wire.ErrType, "type"},
		{"7-byte DOUBLE block", Raw{Block: make([]byte, 7)}, TypeDouble, TypeDouble, ErrConv, wire.ErrLength, "block"},
		{"8-byte FLOAT block", Raw{Block: make([]byte, 8)}, TypeFloat, TypeFloat, ErrConv, wire.ErrLength, "block"},
		{"U32 2^31 to 32", Raw{Insitu: true, Word: 1 << 31}, TypeU32, Type32, ErrTrunc, wire.ErrRange, "value"},
		{"32 -1 to U64", Raw{Insitu: true, Word: 0xffffffff}, Type32, TypeU64, ErrSign, wire.ErrRange, "value"},
	} {
		_, err := Extract(tt.r, tt.in, tt.out)
		pe, ok := errors.AsType[*ParseError](err)
		if !ok || pe.Format != "pcp" || pe.Field != tt.field || pe.Code() != tt.kind.Code() {
			t.Errorf("%s: %#v, want a pcp ParseError in %q of kind %s", tt.name, err, tt.field, tt.kind.Code())
			continue
		}
		c, ok := errors.AsType[Code](err)
		if !ok || c != tt.code || !errors.Is(err, tt.code) || !errors.Is(err, tt.kind) {
			t.Errorf("%s: %v matches code %v, want %v and kind %s", tt.name, err, c, tt.code, tt.kind.Code())
		}
		if errors.Is(err, ErrType) {
			t.Errorf("%s: %v matches PM_ERR_TYPE", tt.name, err)
		}
		if want := "pcp: " + tt.field + ": " + tt.code.Message() + " at offset 0"; err.Error() != want {
			t.Errorf("%s: %q, want %q", tt.name, err, want)
		}
	}
	if ErrRange != wire.ErrRange || ErrLength != wire.ErrLength {
		t.Error("a shared kind is not internal/wire's")
	}
}
