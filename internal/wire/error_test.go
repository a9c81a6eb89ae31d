package wire

import (
	"errors"
	"testing"
)

func TestErrorText(t *testing.T) {
	local := NewKind("pdu_length", "bad PDU length")
	cases := []struct {
		err  error
		want string
	}{
		{NewError("pduwire", "RESULT.len", 0, local), "pduwire: RESULT.len: bad PDU length at offset 0"},
		{NewError("dlt", "", 17, ErrTruncated), "dlt: truncated at offset 17"},
		{NewValueError("pduwire", "header.len", 4, ErrLimit, 70000, 65536),
			"pduwire: header.len: over the limit (value 70000, limit 65536) at offset 4"},
		{InFile(NewError("ltt", "block.size", 0, ErrRange), "cpu_0"), "cpu_0: ltt: block.size: value out of range at offset 0"},
		{&Error{Format: "mmv", Offset: 3, Err: ErrCount, Value: -1, HasValue: true}, "mmv: bad count (value -1) at offset 3"},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

func TestErrorKind(t *testing.T) {
	err := InFile(NewError("mmv", "toc", 8, ErrTruncated), "f.mmv")
	if !errors.Is(err, ErrTruncated) || errors.Is(err, ErrLimit) {
		t.Fatalf("errors.Is does not see the kind of %v", err)
	}
	e, ok := errors.AsType[*Error](err)
	if !ok || e.Code() != "truncated" || e.Offset != 8 || e.File != "f.mmv" {
		t.Fatalf("errors.AsType: %+v, %v", e, ok)
	}
	if (&Error{Err: errors.New("x")}).Code() != "" {
		t.Fatal("a non-Kind error has a code")
	}
	plain := errors.New("plain")
	if InFile(plain, "f") != plain {
		t.Fatal("InFile changed an error that is not an *Error")
	}
}

// Each shared Err variable points at its Kind value, so an alias taken
// as &wire.Truncated is the same kind as wire.ErrTruncated.
func TestSharedKindValues(t *testing.T) {
	for _, c := range []struct {
		p    *Kind
		v    *Kind
		code string
	}{
		{ErrTruncated, &Truncated, "truncated"}, {ErrLimit, &Limit, "limit"}, {ErrLength, &Length, "length"},
		{ErrCount, &Count, "count"}, {ErrTrailing, &Trailing, "trailing"}, {ErrMagic, &Magic, "magic"},
		{ErrVersion, &Version, "version"}, {ErrType, &Type, "type"}, {ErrSyntax, &Syntax, "syntax"},
		{ErrRange, &Range, "range"}, {ErrField, &Field, "field"},
	} {
		if c.p != c.v || c.p.Code() != c.code || !errors.Is(NewError("x", "", 0, c.v), c.p) {
			t.Errorf("%s: the variable and the value differ", c.code)
		}
	}
}
