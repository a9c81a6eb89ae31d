package eventdefs

import (
	"errors"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/ltt"
)

func readCore(t testing.TB) []byte {
	src, err := os.ReadFile("../testdata/smp_example/eventdefs/core.xml")
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestCoreTable: the generated ltt.Core() is exactly what core.xml parses
// to (re-run `go generate ./ltt` if this fails).
func TestCoreTable(t *testing.T) {
	fs, err := Parse(readCore(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fs[0], ltt.Core()) {
		t.Error("ltt.Core() differs from core.xml")
	}
	// docs/ltt.md §7: sizes of the core payloads under ILP32
	want := []int{-1, 5, 0, 6, 0, 2, 0, 12, 0, 5, 9, -1, 10, 5, 9, 9, 5, 20, 20, 16, 8, 8}
	r, err := ltt.NewDecoder(ltt.Options{Arch: ltt.ILP32, BlockSize: 1000}, fs[0])
	if err != nil {
		t.Fatal(err)
	}
	for id, n := range want {
		et := r.EventType(uint16(id))
		if et == nil {
			t.Fatalf("no event %d", id)
		}
		if n < 0 {
			continue
		}
		// a zero-filled payload of n bytes must be exactly one value
		blk := make([]byte, n)
		w := ltt.NewWriter(r, nil)
		err := w.Event(uint16(id), 0, blk)
		if id == ltt.IDBlockStart || id == ltt.IDBlockEnd {
			continue
		}
		if err != nil {
			t.Errorf("%s: %d-byte payload: %v", et.Name(), n, err)
		}
	}
}

func TestSystemXML(t *testing.T) {
	src, err := os.ReadFile("../testdata/smp_example/info/system.xml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseSystem(src)
	if err != nil {
		t.Fatal(err)
	}
	if s.CPU != 2 || s.ArchSize != "ILP32" || s.Endian != "LITTLE_ENDIAN" || s.KernelRelease != "2.5.44-ltt2" ||
		s.Machine != "i686" || s.BlockSize != 1000000 || s.Description != "This is just a test" || s.LTTMajorVersion != "2" {
		t.Errorf("%+v", s)
	}
	cfg, err := s.Options()
	if err != nil || cfg.Arch != ltt.ILP32 || cfg.BigEndian || cfg.BlockSize != 1000000 {
		t.Errorf("config %+v %v", cfg, err)
	}
}

// TestBadInput covers the dialect rules of docs/ltt.md §10 and §3.
func TestBadInput(t *testing.T) {
	ev := func(body string) string {
		return `<facility name=f><event name=e>` + body + `</event></facility>`
	}
	cases := []struct {
		name, src string
		kind      error
		off       int64 // offset of the offending token; -1: not checked
	}{
		{"event without payload or description", `<facility name=f><event name=e></event></facility>`, ErrSyntax, 29},
		{"unknown type element", ev(`<struct><field name=a><bogus/></field></struct>`), ErrSyntax, 54},
		{"bad size", ev(`<struct><field name=a><int size=3/></field></struct>`), ErrAttribute, 63},
		{"missing size", ev(`<struct><field name=a><uint/></field></struct>`), ErrAttribute, 54},
		{"array size not a number", ev(`<struct><field name=a><array size=x><uint size=1/></array></field></struct>`), ErrAttribute, 65},
		{"unquoted format", ev(`<struct><field name=a><uint size=1 format=x/></field></struct>`), ErrAttribute, 73},
		{"undefined typeref", ev(`<typeref name=nope/>`), errUndefined, 45},
		{"recursive type", `<facility name=f><event name=e><typeref name=t/></event><type name=t><struct><field name=a><typeref name=t/></field></struct></type></facility>`, errCycle, -1},
		{"named type not a struct", `<facility name=f><type name=t><uint size=1/></type></facility>`, ErrSyntax, -1},
		{"unterminated string", `<facility name="f><event`, ErrAttribute, 15},
		{"mismatched close", ev(`<struct></union></event>`), ErrSyntax, -1},
		{"leaf with content", ev(`<struct><field name=a><uint size=1></uint></field></struct>`), ErrSyntax, -1},
		{"label without name", ev(`<struct><field name=a><enum size=1><label value=1/></enum></field></struct>`), ErrAttribute, -1},
		{"type twice", `<facility name=f><type name=t><struct/></type><type name=t><struct/></type></facility>`, ErrSyntax, -1},
		{"truncated", `<facility name=f><event name=e><struct>`, ErrSyntax, -1},
		{"xml comment", `<!-- c --><facility name=f></facility>`, ErrSyntax, 1},
		{"exponential typerefs", `<facility name=f><event name=e><typeref name=t0/></event>` + chain(20) + `</facility>`, ErrLimit, -1},
		{"too deep", ev(strings.Repeat(`<struct><field name=a>`, 40) + `<uint size=1/>` + strings.Repeat(`</field></struct>`, 40)), errDepth, -1},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.src), Options{})
		check(t, c.name, err, c.kind, c.off)
	}
	// A limit error names the value over the limit and the limit.
	overLimit := func(err error, kind error, limit int64) bool {
		pe, _ := errors.AsType[*ParseError](err)
		return errors.Is(err, kind) && pe != nil && pe.HasValue && pe.HasLimit && pe.Limit == limit && pe.Value > limit
	}
	core := readCore(t)
	if _, err := Parse(core, Options{MaxBytes: 9000}); !overLimit(err, ErrLimit, 9000) {
		t.Errorf("MaxBytes: %v", err)
	} else if pe, _ := errors.AsType[*ParseError](err); pe.Value != int64(len(core)) {
		t.Errorf("MaxBytes: value %d, want the input's %d bytes", pe.Value, len(core))
	}
	if _, err := Parse(core, Options{MaxNodes: 5}); !overLimit(err, ErrLimit, 5) {
		t.Errorf("MaxNodes: %v", err)
	}
	if _, err := Parse([]byte(fixtureE), Options{MaxDepth: 1}); !overLimit(err, errDepth, 1) {
		t.Errorf("MaxDepth: %v", err)
	}
	sys := []struct {
		name, src string
		kind      error
	}{
		{"unknown attribute", `<system cpu="1" colour="red">x</system>`, ErrAttribute},
		{"unquoted value", `<system cpu=1>x</system>`, ErrAttribute},
		{"bad block size", `<system ltt_block_size="big">x</system>`, ErrAttribute},
		{"not system", `<facility name="x"></facility>`, ErrSyntax},
		{"trailing junk", `<system cpu="1">x</system><x>`, ErrSyntax},
	}
	for _, c := range sys {
		_, err := ParseSystem([]byte(c.src))
		check(t, c.name, err, c.kind, -1)
	}
	for _, c := range []System{{Endian: "little", ArchSize: "ILP32"}, {Endian: "BIG_ENDIAN", ArchSize: "ILP16"}} {
		if _, err := c.Options(); !errors.Is(err, ErrAttribute) {
			t.Errorf("%+v: %v", c, err)
		}
	}
}

// chain defines t0 … tn, each a struct of two fields of the next type.
func chain(n int) string {
	var b strings.Builder
	for i := range n {
		next := "t" + strconv.Itoa(i+1)
		b.WriteString("<type name=t" + strconv.Itoa(i) + "><struct><field name=a><typeref name=" + next +
			"/></field><field name=b><typeref name=" + next + "/></field></struct></type>")
	}
	b.WriteString("<type name=t" + strconv.Itoa(n) + "><struct/></type>")
	return b.String()
}

func check(t *testing.T, name string, err, kind error, off int64) {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Errorf("%s: %v, want %v", name, err, kind)
		return
	}
	pe, ok := errors.AsType[*ParseError](err)
	if !ok {
		t.Errorf("%s: %T is not a ParseError", name, err)
	} else if off >= 0 && pe.Offset != off {
		t.Errorf("%s: %v: want offset %d", name, err, off)
	}
}

// FuzzParse: no panic on any description; a parsed facility has a
// checksum and either lays out for every arch or is refused with
// ltt.ErrType, and its events walk a zero-filled block without panics.
func FuzzParse(f *testing.F) {
	f.Add(readCore(f))
	for _, v := range checksumVectors {
		f.Add([]byte(v.src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		fs, err := Parse(src, Options{})
		if err != nil {
			if _, ok := errors.AsType[*ParseError](err); !ok {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		for _, fac := range fs {
			fac.Checksum()
			for _, a := range []ltt.Arch{ltt.ArchUnknown, ltt.LP32, ltt.ILP64} {
				if _, err := ltt.NewDecoder(ltt.Options{Arch: a, BlockSize: 256}, fac); err != nil && !errors.Is(err, ltt.ErrType) && !errors.Is(err, ltt.ErrFacility) {
					t.Fatal(err)
				}
			}
		}
	})
}

func FuzzParseSystem(f *testing.F) {
	src, err := os.ReadFile("../testdata/smp_example/info/system.xml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(src)
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := ParseSystem(src)
		if err != nil {
			if _, ok := errors.AsType[*ParseError](err); !ok {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		s.Options()
	})
}
