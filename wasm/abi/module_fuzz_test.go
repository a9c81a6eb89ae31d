package abi

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

// FuzzModule drives the ABI itself, as a host does: arbitrary bytes into
// a buffer, any op with any numeric argument, on buffers and sessions,
// then freed. Every call must answer one MessagePack map whose error, if
// any, has a kind other than internal (a caught panic) and a message; a
// session op either opens a session or refuses with handle 0.
func FuzzModule(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*"))
	for i, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 2048)], uint8(i), uint32(i%3), uint16(len(b)/2))
	}
	f.Fuzz(func(t *testing.T, in []byte, op uint8, n uint32, cut uint16) {
		m := NewModule()
		o := Op(op % uint8(numOps+1)) // numOps itself: an undefined op
		a := m.Keep(in)
		check := func(res []byte) {
			t.Helper()
			var e schema.ErrorResult
			if rest, err := e.UnmarshalMsg(res); err != nil || len(rest) != 0 {
				t.Fatalf("op %d: result is not one map: %v", o, err)
			}
			if e.Error != nil && (e.Error.Kind == schema.ErrInternal.Code() || e.Error.Kind == "" || e.Error.Message == "") {
				t.Fatalf("op %d: error %+v", o, *e.Error)
			}
			if _, err := msgp.Skip(res); err != nil {
				t.Fatal(err)
			}
		}
		if o < numOps && o.Opens() {
			s := m.Open(o, a, n)
			if s == 0 {
				s = m.Open(o, n, 0) // the numeric form
			}
			if s == 0 {
				return
			}
			// Drive the session with the ops that take one.
			c := int(cut) % (len(in) + 1)
			for _, x := range []Op{OpKPIStep, OpKPIFeed, OpPDUFeed, OpKPITable, OpPDUFeed, OpKPIEnd, OpPDUEnd, OpKPITable} {
				arg := n % 64
				if Calls[x].Args == ArgSessionIn {
					arg = m.Keep(in[:c])
				}
				check(m.Call(x, s, arg))
			}
			m.Free(s)
			return
		}
		check(m.Call(o, a, n))
		m.Free(a)
	})
}
