package dltkpi

import (
	"errors"
	"os"
	"testing"

	"github.com/perfwire/perfwire/dlt"
)

// TestFromDLT reads each capture with package dlt's scanner and checks
// that PushDLT sees exactly what the test reader's payloads give: the
// same stats, no NOAR mismatch, nothing skipped by the scanner.
func TestFromDLT(t *testing.T) {
	for _, name := range captures {
		data, err := os.ReadFile("testdata/" + name + ".dlt")
		if err != nil {
			t.Fatal(err)
		}
		_, want, wantOpen := replay(t, name, Limits{})
		r := NewReassembler(Limits{})
		s := dlt.NewScanner(data, dlt.Options{})
		i := 0
		capMsgs := readCapture(t, name)
		for s.Next() {
			m := s.Message()
			km, src, err := FromDLT(m)
			if capMsgs[i].isKPI() != (err == nil) {
				t.Fatalf("%s #%d: FromDLT: %v", name, i, err)
			}
			if err == nil && (src != capMsgs[i].sourceWithNOAR() || km.Arguments != capMsgs[i].noar) {
				t.Fatalf("%s #%d: source %+v", name, i, src)
			}
			if err != nil && !errors.Is(err, ErrNotKPI) {
				t.Fatalf("%s #%d: %v", name, i, err)
			}
			r.PushDLT(Selector{}, m)
			for r.Next() {
			}
			i++
		}
		if s.Err() != nil || s.Skipped() != 0 || i != len(capMsgs) {
			t.Fatalf("%s: scanner: %v, skipped %d, %d messages", name, s.Err(), s.Skipped(), i)
		}
		open := r.OpenGroups()
		r.Flush()
		for r.Next() {
		}
		if st := r.Stats(); st != want || open != wantOpen {
			t.Errorf("%s: stats %+v\nwant %+v", name, r.Stats(), want)
		}
	}
}
