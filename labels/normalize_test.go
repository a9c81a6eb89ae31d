package labels

import (
	"errors"
	"testing"
)

// TestNormalizeLibpcpSingleParse feeds Normalize the single-parse sets
// libpcp 6.0.3's __pmParseLabelSet returned (via testdata/libpcp/harness.c)
// for inputs with maps: the JSON keeps the maps and each compound label's
// name span is its last component.
func TestNormalizeLibpcpSingleParse(t *testing.T) {
	type entry struct{ no, nl, vo, vl, fl int }
	for _, tc := range []struct {
		json    string
		entries []entry
		want    string
		flags   []Flags // in sorted order
	}{
		{`{"z":{"a":1},"b":2}`, []entry{{14, 1, 17, 1, 16}, {7, 1, 10, 1, 80}}, `{"b":2,"z.a":1}`, []Flags{Item, Item | Compound}},
		{`{"d":{"e":{"f":1}}}`, []entry{{12, 1, 15, 1, 80}}, `{"d.e.f":1}`, []Flags{Item | Compound}},
		{`{"m":{}}`, []entry{{2, 1, 5, 2, 80}}, `{"m":{}}`, []Flags{Item | Compound}},
		{`{"b":1,"a":{"x":1,"y":2}}`, []entry{{13, 1, 16, 1, 80}, {19, 1, 22, 1, 80}, {2, 1, 5, 1, 16}}, `{"a.x":1,"a.y":2,"b":1}`, []Flags{Item | Compound, Item | Compound, Item}},
		{`{"b":"x y","a":1}`, []entry{{12, 1, 15, 1, 16}, {2, 1, 5, 5, 16}}, `{"a":1,"b":"x y"}`, []Flags{Item, Item}},
		{``, nil, `{}`, nil},
	} {
		var index []byte
		for _, e := range tc.entries {
			index = AppendLabel(index, Label{NameOff: uint16(e.no), NameLen: uint8(e.nl), ValueOff: uint16(e.vo), ValueLen: uint16(e.vl), Flags: Flags(e.fl)})
		}
		var s Set
		if err := Normalize(&s, []byte(tc.json), index); err != nil {
			t.Errorf("%s: %v", tc.json, err)
			continue
		}
		if string(s.JSON) != tc.want {
			t.Errorf("%s: %s, want %s", tc.json, s.JSON, tc.want)
		}
		for i, f := range tc.flags {
			if s.Index[i].Flags != f {
				t.Errorf("%s: entry %d flags %v, want %v", tc.json, i, s.Index[i].Flags, f)
			}
		}
	}
}

// TestNormalizeCaptures: every captured set normalizes to the same labels
// a strict DecodeWire finds.
func TestNormalizeCaptures(t *testing.T) {
	for _, conv := range []string{"conv01", "conv03", "conv04", "conv05"} {
		for _, p := range splitPDUs(t, readFile(t, "captures/"+conv+".server.bin")) {
			if p.typ != pduLabel {
				continue
			}
			lp, err := decodeLabelPDU(p.body, VerifyStrict)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range lp.sets {
				var n Set
				if err := Normalize(&n, s.JSON, s.AppendIndex(nil)); err != nil || !n.Equal(s) {
					t.Errorf("%s: Normalize(%s) = %s, %v", conv, s.JSON, n.JSON, err)
				}
			}
		}
	}
}

func TestNormalizeBadInput(t *testing.T) {
	json := []byte(`{"a":1,"m":{"b":22}}`)
	idx := labelIndex
	a := Label{NameOff: 2, NameLen: 1, ValueOff: 5, ValueLen: 1}
	b := Label{NameOff: 13, NameLen: 1, ValueOff: 16, ValueLen: 2}
	for _, tc := range []struct {
		name  string
		json  []byte
		index []byte
		kind  error
		off   int
	}{
		{"missing entry", json, idx(a), errIndex, 0},
		{"entry twice", json, idx(a, a), errIndex, 8},
		{"entry off a key", json, idx(a, Label{NameOff: 14, NameLen: 1, ValueOff: 16, ValueLen: 2}), errIndex, 8},
		{"name span not the key", json, idx(a, Label{NameOff: 13, NameLen: 2, ValueOff: 16, ValueLen: 2}), errIndex, 8},
		{"value span elsewhere", json, idx(a, Label{NameOff: 13, NameLen: 1, ValueOff: 5, ValueLen: 1}), errIndex, 8},
		{"span past the JSON", json, idx(a, Label{NameOff: 13, NameLen: 1, ValueOff: 16, ValueLen: 9}), errIndex, 8},
		{"partial entry", json, idx(a, b)[:15], errIndex, 8},
		{"bare word value (qa/567)", []byte(`{"none":none}`), idx(Label{NameOff: 2, NameLen: 4, ValueOff: 8, ValueLen: 4}), ErrSyntax, 9},
	} {
		var s Set
		err := Normalize(&s, tc.json, tc.index)
		if !errors.Is(err, tc.kind) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.kind)
			continue
		}
		if pe, _ := errors.AsType[*ParseError](err); pe.Offset != int64(tc.off) {
			t.Errorf("%s: offset %d, want %d", tc.name, pe.Offset, tc.off)
		}
		if s.Len() != 0 {
			t.Errorf("%s: set not empty", tc.name)
		}
	}
	var s Set
	if err := Normalize(&s, json, idx(b, a)); err != nil || string(s.JSON) != `{"a":1,"m.b":22}` {
		t.Errorf("valid: %s, %v", s.JSON, err)
	}
}
