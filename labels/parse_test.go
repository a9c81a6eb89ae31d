package labels

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// TestParseAccepts covers the accepting rows of the spec's parsing table
// (docs/pcp-labels.md §3) and the canonical form of §4.1.
func TestParseAccepts(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		opts     Options
	}{
		{`{}`, `{}`, Options{}},
		{" { \t\r\n} ", `{}`, Options{}},
		{`{ "b" : "x y" ,  "a" : 1 }`, `{"a":1,"b":"x y"}`, Options{}},
		{`{"s":"tab\there \"q\" \\ \/ \u00e9 \uABCD"}`, `{"s":"tab\there \"q\" \\ \/ \u00e9 \uABCD"}`, Options{}},
		{`{"u":"héllo wörld"}`, `{"u":"héllo wörld"}`, Options{}},
		{`{"a":0,"b":1e5,"c":-0.5,"d":1E-3,"e":12.25e+10}`, `{"a":0,"b":1e5,"c":-0.5,"d":1E-3,"e":12.25e+10}`, Options{}},
		{`{"t":true,"f":false,"n":null}`, `{"f":false,"n":null,"t":true}`, Options{}},
		{`{"a":[ 1 , "x y" ,true,null ]}`, `{"a":[1,"x y",true,null]}`, Options{}},
		{`{"e":[]}`, `{"e":[]}`, Options{}},
		{`{"e":[ ]}`, `{"e":[]}`, Options{}},
		{`{"m":{}}`, `{"m":{}}`, Options{}},
		{`{"d":{"e":1}}`, `{"d.e":1}`, Options{}},
		{`{"a":{"b":{"c":{"d":1}}}}`, `{"a.b.c.d":1}`, Options{}},
		{`{"a":1,"a2":{"b":2},"a.c":3}`, `{"a":1,"a.c":3,"a2.b":2}`, Options{Dotted: true}},
		{`{"1":1,"B":1,"Z":1,"_":1,"a":1,"a0":1,"a1":1,"aA":1,"a_":1,"b":1}`, `{"1":1,"B":1,"Z":1,"_":1,"a":1,"a0":1,"a1":1,"aA":1,"a_":1,"b":1}`, Options{}},
		{`{"map2":{"foo":1},"map":{"ratio":2,"priority":3}}`, `{"map.priority":3,"map.ratio":2,"map2.foo":1}`, Options{}},
		{`{"b":1,"bad-key":{"x":[[1]]},"a":2}`, `{"a":2,"b":1}`, Options{SkipInvalidKeys: true}},
		{`{"` + strings.Repeat("n", 254) + `":1}`, `{"` + strings.Repeat("n", 254) + `":1}`, Options{}},
		{strings.Repeat(`{"a":`, 64) + "1" + strings.Repeat("}", 64), `{"` + strings.Repeat("a.", 63) + `a":1}`, Options{}},
	} {
		s := new(Set)
		if err := Parse(s, []byte(tc.in), tc.opts); err != nil {
			t.Errorf("Parse(%.60q): %v", tc.in, err)
			continue
		}
		if string(s.JSON) != tc.want {
			t.Errorf("Parse(%.60q) = %.80s, want %.80s", tc.in, s.JSON, tc.want)
		}
		checkIndex(t, s)
	}
}

// checkIndex verifies that s's index is sorted and that each entry's
// spans are the quoted name and the value as they sit in s.JSON.
func checkIndex(t *testing.T, s *Set) {
	t.Helper()
	for i, l := range s.Index {
		if l.NameOff < 1 || s.JSON[l.NameOff-1] != '"' || s.JSON[int(l.NameOff)+int(l.NameLen)] != '"' ||
			int(l.ValueOff) != int(l.NameOff)+int(l.NameLen)+2 {
			t.Errorf("%s: entry %d %+v does not frame its name", s.JSON, i, l)
		}
		if i > 0 && bytes.Compare(s.name(s.Index[i-1]), s.name(l)) >= 0 {
			t.Errorf("%s: index not sorted at %d", s.JSON, i)
		}
	}
	var again Set
	if err := again.DecodeWire(s.JSON, s.AppendIndex(nil), VerifyStrict); err != nil && len(s.Index) > 0 {
		t.Errorf("%s: own index fails strict decode: %v", s.JSON, err)
	}
}

// TestParseSingleParseForm checks KeepOrder against the spec's [6.0.3]
// example of libpcp's single-parse form (docs/pcp-labels.md §4.2).
func TestParseSingleParseForm(t *testing.T) {
	s := mustParse(t, `{ "b" : "x y" ,  "a" : 1 }`, Options{KeepOrder: true})
	if string(s.JSON) != `{"b":"x y","a":1}` {
		t.Fatalf("JSON %s", s.JSON)
	}
	want := []Label{{NameOff: 12, NameLen: 1, ValueOff: 15, ValueLen: 1}, {NameOff: 2, NameLen: 1, ValueOff: 5, ValueLen: 5}}
	if len(s.Index) != 2 || s.Index[0] != want[0] || s.Index[1] != want[1] {
		t.Errorf("index %+v, want %+v", s.Index, want)
	}
}

// TestParseFlags: caller flags reach every label; flattened and dotted
// names gain Compound; ClassicName reports what PCP 6.x would reject.
func TestParseFlags(t *testing.T) {
	s := mustParse(t, `{"a":1,"m":{"x":1},"e":{},"d.x":2,"_u":3}`, Options{Dotted: true, Flags: Item | Optional})
	want := map[string]Flags{"a": Item | Optional, "m.x": Item | Optional | Compound, "e": Item | Optional | Compound, "d.x": Item | Optional | Compound, "_u": Item | Optional}
	for p := range s.All() {
		if want[string(p.Name)] != p.Flags {
			t.Errorf("%s: flags %v, want %v", p.Name, p.Flags, want[string(p.Name)])
		}
		if p.ClassicName() != (string(p.Name) != "_u") {
			t.Errorf("%s: ClassicName %v", p.Name, p.ClassicName())
		}
	}
	if p, ok := s.Lookup("m.x"); !ok || string(p.Value) != "1" {
		t.Errorf("Lookup(m.x) = %v, %v", p, ok)
	}
	for _, n := range []string{"m", "", "zz", "d"} {
		if _, ok := s.Lookup(n); ok {
			t.Errorf("Lookup(%q) found a label", n)
		}
	}
}

// TestParseReuse parses sets of different sizes into one Set.
func TestParseReuse(t *testing.T) {
	var s Set
	for i := 10; i >= 0; i-- {
		var b strings.Builder
		b.WriteString("{")
		for k := i; k > 0; k-- {
			if k < i {
				b.WriteString(",")
			}
			b.WriteString(`"k` + strconv.Itoa(k) + `":` + strconv.Itoa(k))
		}
		b.WriteString("}")
		if err := Parse(&s, []byte(b.String()), Options{}); err != nil || s.Len() != i {
			t.Fatalf("%s: %d labels, %v", b.String(), s.Len(), err)
		}
		checkIndex(t, &s)
	}
}
