//go:build conformance

package viewer

import (
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/perfwire/perfwire/dlt"
)

// writeDamagedSerial writes the serial capture in again, damaged as a
// serial line damages one: a record whose LEN grew past the records
// after it, garbage between two records, a record whose "DLS" 01 pattern
// is broken and a record cut short (its LEN runs into the next).
func writeDamagedSerial(t *testing.T, in, out string) {
	t.Helper()
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	var recs [][]byte
	s := dlt.NewScanner(data, dlt.Options{Framing: dlt.FramingSerial})
	for s.Next() {
		recs = append(recs, slices.Clone(s.Message().Bytes()))
	}
	if s.Err() != nil || s.Skipped() != 0 || len(recs) < 200 {
		t.Fatalf("serial capture: %d records, %d bytes skipped, %v", len(recs), s.Skipped(), s.Err())
	}
	var b []byte
	for i, r := range recs {
		r = slices.Clone(r) // "DLS" 01, then the message: LEN at 6
		switch i {
		case 10:
			n := int(r[6])<<8 | int(r[7]) + 300
			r[6], r[7] = byte(n>>8), byte(n)
		case 40:
			b = append(b, "garbage"...)
		case 80:
			r[3] = 2
		case 120:
			r = r[:len(r)-10]
		}
		b = append(b, r...)
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkDamagedSerialLog compares the message log of the damaged serial
// capture with perfwire kpi --json on the same file: the same messages,
// resynchronised over the damage the same way.
func checkDamagedSerialLog(t *testing.T, root, file string, got keptLog, whole int) {
	t.Helper()
	var want [][]string
	for _, m := range cliLog(t, root, file) {
		want = append(want, m.cells)
	}
	if len(want) >= whole || len(want) < whole-10 {
		t.Errorf("damaged serial capture: perfwire kpi --json gives %d messages, %d undamaged", len(want), whole)
	}
	if got.State != "done" || !reflect.DeepEqual(got.Rows, want) {
		t.Errorf("damaged serial capture's log: state %q, %d rows; perfwire kpi --json %d messages", got.State, len(got.Rows), len(want))
		for i := range min(len(got.Rows), len(want)) {
			if !reflect.DeepEqual(got.Rows[i], want[i]) {
				t.Errorf("damaged serial log row %d %q, perfwire kpi --json %q", i, got.Rows[i], want[i])
				break
			}
		}
	}
}
