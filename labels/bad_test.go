package labels

import (
	"errors"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/internal/wire"
)

// TestParseBadInput walks the spec's rejection checklist (docs/pcp-labels.md
// §3): each input must fail with the given kind at the given offset.
func TestParseBadInput(t *testing.T) {
	long := strings.Repeat("n", 255)
	var many strings.Builder
	many.WriteString("{")
	for i := 0; i < 255; i++ {
		if i > 0 {
			many.WriteString(",")
		}
		many.WriteString(`"l` + strings.Repeat("x", i/26) + string(rune('a'+i%26)) + `":1`)
	}
	many.WriteString("}")
	deep := strings.Repeat(`{"a":`, 65) + "1" + strings.Repeat("}", 65)
	huge := `{"a":"` + strings.Repeat("x", MaxJSONLen) + `"}`

	for _, tc := range []struct {
		name string
		in   string
		opts Options
		kind error
		off  int // -1: do not check
	}{
		{"empty input", ``, Options{}, ErrTruncated, 0},
		{"lone brace", `{`, Options{}, ErrTruncated, 1},
		{"truncated after value", `{"a":"x"`, Options{}, ErrTruncated, 8},
		{"truncated number", `{"a":1`, Options{}, ErrTruncated, 6},
		{"truncated string", `{"a":"x`, Options{}, ErrTruncated, 7},
		{"truncated key", `{"a`, Options{}, ErrTruncated, 3},
		{"truncated before colon", `{"a"`, Options{}, ErrTruncated, 4},
		{"truncated literal", `{"a":tru`, Options{}, ErrTruncated, 8},
		{"truncated array", `{"a":[1,`, Options{}, ErrTruncated, 8},
		{"trailing text", `{"a":1}x`, Options{}, ErrSyntax, 7},
		{"two objects", `{}{}`, Options{}, ErrSyntax, 2},
		{"trailing comma", `{"a":1,}`, Options{}, ErrSyntax, 7},
		{"trailing comma in array", `{"a":[1,]}`, Options{}, ErrSyntax, 8},
		{"single quotes", `{'a':1}`, Options{}, ErrSyntax, 1},
		{"unquoted key", `{a:1}`, Options{}, ErrSyntax, 1},
		{"missing colon", `{"a" 1}`, Options{}, ErrSyntax, 5},
		{"missing comma", `{"a":1 "b":2}`, Options{}, ErrSyntax, 7},
		{"top-level array", `[1]`, Options{}, ErrSyntax, 0},
		{"top-level number", `1`, Options{}, ErrSyntax, 0},
		{"top-level null", `null`, Options{}, ErrSyntax, 0},
		{"top-level string", `"a"`, Options{}, ErrSyntax, 0},
		{"bad escape", `{"a":"\x"}`, Options{}, ErrSyntax, 7},
		{"short unicode escape", `{"a":"\u12"}`, Options{}, ErrSyntax, 10},
		{"raw control byte", "{\"a\":\"x\x01\"}", Options{}, ErrSyntax, 7},
		{"raw newline in string", "{\"a\":\"x\ny\"}", Options{}, ErrSyntax, 7},
		{"leading zero", `{"a":01}`, Options{}, ErrSyntax, 6},
		{"bare fraction point", `{"a":1.}`, Options{}, ErrSyntax, 7},
		{"leading point", `{"a":.5}`, Options{}, ErrSyntax, 5},
		{"plus sign", `{"a":+1}`, Options{}, ErrSyntax, 5},
		{"empty exponent", `{"a":1e}`, Options{}, ErrSyntax, 7},
		{"lone minus", `{"a":-}`, Options{}, ErrSyntax, 6},
		{"NaN", `{"a":NaN}`, Options{}, ErrSyntax, 5},
		{"misspelt literal", `{"a":nul}`, Options{}, ErrSyntax, 8},
		{"literal with tail", `{"a":truex}`, Options{}, ErrSyntax, 9},
		{"array in array", `{"a":[[1]]}`, Options{}, errUnsupportedValue, 6},
		{"object in array", `{"a":[1,{"b":2}]}`, Options{}, errUnsupportedValue, 8},
		{"name with dash", `{"bad-key":1}`, Options{}, ErrName, 2},
		{"non-ASCII name", `{"é":1}`, Options{}, ErrName, 2},
		{"empty name", `{"":1}`, Options{}, ErrName, 2},
		{"escaped name", `{"a\u0062":1}`, Options{}, ErrName, 2},
		{"dotted name outside compound mode", `{"a.b":1}`, Options{}, ErrName, 2},
		{"empty dotted component", `{"a..b":1}`, Options{Dotted: true}, ErrName, 2},
		{"trailing dot", `{"a.":1}`, Options{Dotted: true}, ErrName, 2},
		{"leading digit under Classic", `{"1a":1}`, Options{Names: Classic}, ErrName, 2},
		{"leading underscore under Classic", `{"_a":1}`, Options{Names: Classic}, ErrName, 2},
		{"nested leading digit under Classic", `{"a":{"1":2}}`, Options{Names: Classic}, ErrName, 7},
		{"every key invalid", `{"bad-1":1,"bad-2":2}`, Options{SkipInvalidKeys: true}, ErrName, 0},
		{"duplicate name", `{"a":1,"b":2,"a":3}`, Options{}, ErrDuplicate, 14},
		{"duplicate after flattening", `{"a.b":1,"a":{"b":2}}`, Options{Dotted: true}, ErrDuplicate, 15},
		{"name of 255 bytes", `{"` + long + `":1}`, Options{}, ErrLimit, 2},
		{"flattened name of 255 bytes", `{"` + long[:200] + `":{"` + long[:54] + `":1}}`, Options{}, ErrLimit, 206},
		{"255 labels", many.String(), Options{}, ErrLimit, -1},
		{"text over 65534 bytes", huge, Options{}, ErrLimit, MaxJSONLen},
		{"nesting beyond MaxDepth", deep, Options{}, errDepth, 64 * 5},
		{"array beyond MaxDepth", `{"a":{"b":[1]}}`, Options{Limits: Limits{MaxDepth: 2}}, errDepth, 10},
		{"labels beyond MaxLabels", `{"a":1,"b":2}`, Options{Limits: Limits{MaxLabels: 1}}, ErrLimit, 8},
		{"output beyond MaxJSONLen", `{"abcdefgh":{"a":1,"b":2}}`, Options{Limits: Limits{MaxJSONLen: 26}}, ErrLimit, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s Set
			err := Parse(&s, []byte(tc.in), tc.opts)
			if !errors.Is(err, tc.kind) {
				t.Fatalf("Parse(%.40q) = %v, want %v", tc.in, err, tc.kind)
			}
			pe, ok := errors.AsType[*ParseError](err)
			if !ok {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			if tc.off >= 0 && pe.Offset != int64(tc.off) {
				t.Errorf("offset %d, want %d (%v)", pe.Offset, tc.off, err)
			}
			if s.Len() != 0 || len(s.JSON) != 0 {
				t.Errorf("set not empty after failure: %q", s.JSON)
			}
		})
	}
}

// labelIndex is the wire index of ls, entry after entry.
func labelIndex(ls ...Label) []byte {
	var b []byte
	for _, l := range ls {
		b = AppendLabel(b, l)
	}
	return b
}

// TestDecodeWireBadInput covers the checks of a received index (docs/pcp-labels.md
// §4.4 and docs/pcp-pdu.md §4.15).
func TestDecodeWireBadInput(t *testing.T) {
	json := []byte(`{"a":1,"b":22}`)
	idx := labelIndex
	a := Label{NameOff: 2, NameLen: 1, ValueOff: 5, ValueLen: 1}
	b := Label{NameOff: 8, NameLen: 1, ValueOff: 11, ValueLen: 2}
	for _, tc := range []struct {
		name  string
		json  []byte
		index []byte
		v     Verify
		kind  error
		off   int
	}{
		{"partial entry", json, idx(a)[:7], VerifyIndex, errIndex, 0},
		{"name past the JSON", json, idx(Label{NameOff: 13, NameLen: 2}), VerifyBounds, errIndex, 0},
		{"value past the JSON", json, idx(a, Label{NameOff: 8, NameLen: 1, ValueOff: 11, ValueLen: 4}), VerifyBounds, errIndex, 8},
		{"unsorted", json, idx(b, a), VerifyIndex, errIndex, 8},
		{"duplicate", json, idx(a, a), VerifyIndex, errIndex, 8},
		{"name span not a name", json, idx(Label{NameOff: 1, NameLen: 2, ValueOff: 5, ValueLen: 1}), VerifyIndex, errIndex, 0},
		{"overlapping spans", json, idx(a, Label{NameOff: 8, NameLen: 1, ValueOff: 8, ValueLen: 2}), VerifyIndex, errIndex, 0},
		{"index disagrees with the JSON", json, idx(a), VerifyStrict, errIndex, 0},
		{"JSON not parseable", []byte(`{"a":none}`), idx(Label{NameOff: 2, NameLen: 1, ValueOff: 5, ValueLen: 4}), VerifyStrict, ErrSyntax, 6},
		{"more than 255 entries", json, make([]byte, 256*8), VerifyBounds, ErrLimit, 0},
		{"JSON over 65534 bytes", make([]byte, MaxJSONLen+1), nil, VerifyBounds, ErrLimit, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s Set
			err := s.DecodeWire(tc.json, tc.index, tc.v)
			if !errors.Is(err, tc.kind) {
				t.Fatalf("DecodeWire = %v, want %v", err, tc.kind)
			}
			if pe, _ := errors.AsType[*ParseError](err); pe == nil || pe.Offset != int64(tc.off) {
				t.Errorf("error %v, want offset %d", err, tc.off)
			}
			if s.Len() != 0 {
				t.Errorf("set not empty after failure")
			}
		})
	}
	var s Set
	if err := s.DecodeWire(json, idx(a, b), VerifyStrict); err != nil {
		t.Errorf("valid set rejected: %v", err)
	}
}

// TestMergeTooBig: a merge whose result exceeds 254 labels fails.
func TestMergeTooBig(t *testing.T) {
	var b1, b2 Builder
	for i := 0; i < 200; i++ {
		n := "a" + strings.Repeat("b", i)
		if i < 128 {
			b1.Int(n, 1)
		} else {
			b2.Int(n, 1)
		}
		if i < 100 {
			b2.Int("c"+strings.Repeat("d", i), 2)
		}
	}
	var s1, s2, m Set
	if err := b1.Finish(&s1); err != nil {
		t.Fatal(err)
	}
	if err := b2.Finish(&s2); err != nil {
		t.Fatal(err)
	}
	if err := Merge(&m, []*Set{&s1, &s2}, nil); !errors.Is(err, ErrLimit) {
		t.Fatalf("Merge = %v, want ErrLimit", err)
	}
}

// TestLimitErrorsNameValueAndLimit: an ErrLimit or errDepth error says
// which number broke which limit, as docs/api.md rule 6 asks.
func TestLimitErrorsNameValueAndLimit(t *testing.T) {
	huge := `{"a":"` + strings.Repeat("x", MaxJSONLen) + `"}`
	for _, tc := range []struct {
		name         string
		in           string
		opts         Options
		kind         error
		value, limit int64
	}{
		{"name of 255 bytes", `{"` + strings.Repeat("n", 255) + `":1}`, Options{}, ErrLimit, 255, DefaultMaxNameLen},
		{"text over 65534 bytes", huge, Options{}, ErrLimit, int64(len(huge)), MaxJSONLen},
		{"two labels over MaxLabels 1", `{"a":1,"b":2}`, Options{Limits: Limits{MaxLabels: 1}}, ErrLimit, 2, 1},
		// {"abcdefgh.a":1,"abcdefgh.b":2} is 1+12+1+1 + 1+12+1+1 + 1 = 31 bytes.
		{"output over MaxJSONLen 26", `{"abcdefgh":{"a":1,"b":2}}`, Options{Limits: Limits{MaxJSONLen: 26}}, ErrLimit, 31, 26},
		{"65 levels", strings.Repeat(`{"a":`, 65) + "1" + strings.Repeat("}", 65), Options{}, errDepth, 65, DefaultMaxDepth},
		{"array at level 3 over MaxDepth 2", `{"a":{"b":[1]}}`, Options{Limits: Limits{MaxDepth: 2}}, errDepth, 3, 2},
		{"MaxDepth clamped to 256", strings.Repeat(`{"a":`, 257) + "1" + strings.Repeat("}", 257), Options{Limits: Limits{MaxDepth: 1000}}, errDepth, 257, 256},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Parse(new(Set), []byte(tc.in), tc.opts)
			if !errors.Is(err, tc.kind) {
				t.Fatalf("Parse = %v, want %v", err, tc.kind)
			}
			pe, _ := errors.AsType[*ParseError](err)
			if pe == nil || !pe.HasValue || !pe.HasLimit || pe.Value != tc.value || pe.Limit != tc.limit {
				t.Fatalf("Parse = %#v, want value %d and limit %d", pe, tc.value, tc.limit)
			}
		})
	}
}

// TestErrorKinds: the shared kinds are internal/wire's own values (one
// failure, one kind, whatever the format), the package's own kinds have
// the stable codes the wasm ABI reports, and no message repeats the
// format.
func TestErrorKinds(t *testing.T) {
	if ErrSyntax != wire.ErrSyntax || ErrTruncated != wire.ErrTruncated || ErrLimit != wire.ErrLimit {
		t.Fatal("a shared kind is not internal/wire's")
	}
	for kind, code := range map[*wire.Kind]string{
		ErrName: "labels_name", ErrDuplicate: "labels_duplicate", errUnsupportedValue: "labels_value",
		errDepth: "labels_depth", errIndex: "labels_index",
	} {
		if kind.Code() != code {
			t.Errorf("%q: code %q, want %q", kind.Error(), kind.Code(), code)
		}
		if strings.Contains(kind.Error(), "labels") {
			t.Errorf("kind message %q repeats the format", kind.Error())
		}
	}
	err := Parse(new(Set), []byte(`{"a":1,"a":2}`), Options{})
	if got, want := err.Error(), "labels: name: duplicate label name at offset 8"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
