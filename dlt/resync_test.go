package dlt

import (
	"bytes"
	"testing"
)

func strRecord(t testing.TB, s string) []byte {
	t.Helper()
	p, err := AppendStringArg(nil, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	return newRecord(t, 1, p, false)
}

// TestPatternInsidePayload puts "DLT\x01" at every offset of a string
// argument: intact input is unaffected, and after corrupting the first
// record the scanner skips exactly that record.
func TestPatternInsidePayload(t *testing.T) {
	const n = 40
	for k := 0; k+4 <= n; k++ {
		s := []byte(string(make([]byte, n)))
		for i := range s {
			s[i] = 'a'
		}
		copy(s[k:], "DLT\x01")
		r1 := strRecord(t, string(s))
		r2 := strRecord(t, "second")
		r3 := strRecord(t, "third")
		in := bytes.Join([][]byte{r1, r2, r3}, nil)
		if ms := scanAll(t, in, Options{}); len(ms) != 3 {
			t.Fatalf("k=%d: %d messages", k, len(ms))
		}
		// Flip the pattern, the version bits and LEN's high byte (past
		// the end); add 10 to LEN (into the second record).
		for _, corrupt := range []struct {
			at  int
			xor byte
		}{{0, 0xFF}, {16, 0xFF}, {18, 0xFF}, {19, 10}} {
			bad := append([]byte(nil), in...)
			if corrupt.at == 19 {
				bad[corrupt.at] += corrupt.xor
			} else {
				bad[corrupt.at] ^= corrupt.xor
			}
			sc := NewScanner(bad, Options{})
			var got []string
			for sc.Next() {
				for a := range sc.Message().Args() {
					got = append(got, string(a.Bytes()))
				}
			}
			if sc.Err() != nil || len(got) != 2 || got[0] != "second" || got[1] != "third" ||
				sc.Skipped() != len(r1) || sc.Resyncs() != 1 || sc.SkipError() == nil {
				t.Fatalf("k=%d corrupt@%d: got %q err %v skipped %d (want %d) resyncs %d",
					k, corrupt, got, sc.Err(), sc.Skipped(), len(r1), sc.Resyncs())
			}
		}
	}
}

// TestResyncCapture damages records of a real capture in several ways and
// checks exactly which messages survive and how many bytes were skipped.
func TestResyncCapture(t *testing.T) {
	data := readCapture(t, "kpi-odd")
	ms := scanAll(t, data, Options{})
	const k = 100
	rk := ms[k]
	end := rk.Offset() + len(rk.Bytes())
	tests := []struct {
		name    string
		in      []byte
		msgs    int
		skipped int
		kind    error
	}{
		{"garbage before the first record", append([]byte("garbage!"), data...), len(ms), 8, ErrMagic},
		{"LEN of record k too large", func() []byte {
			b := append([]byte(nil), data...)
			b[rk.Offset()+18] = 0xFF
			return b
		}(), len(ms) - 1, len(rk.Bytes()), ErrLength},
		{"record k cut in half", append(append([]byte(nil), data[:rk.Offset()+30]...), data[end:]...), len(ms) - 1, 30, ErrLength},
		{"DLT v2 record", func() []byte {
			b := append([]byte(nil), data...)
			b[rk.Offset()+3] = 2
			return b
		}(), len(ms) - 1, len(rk.Bytes()), ErrVersion},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewScanner(tt.in, Options{})
			n := 0
			for s.Next() {
				n++
			}
			if s.Err() != nil || n != tt.msgs || s.Skipped() != tt.skipped {
				t.Fatalf("err %v messages %d (want %d) skipped %d (want %d)", s.Err(), n, tt.msgs, s.Skipped(), tt.skipped)
			}
			if tt.name != "record k cut in half" {
				wantErr(t, s.SkipError(), tt.kind, -1)
			}
		})
	}
}

// TestResyncEnd: what cannot be resynchronised past ends the scan with
// the error of the record that failed.
func TestResyncEnd(t *testing.T) {
	r := strRecord(t, "one")
	in := append(append([]byte(nil), r...), r[:len(r)-3]...)
	s := NewScanner(in, Options{})
	n := 0
	for m, err := range s.All() {
		if err != nil {
			wantErr(t, err, ErrTruncated, len(r))
			break
		}
		if m.Offset() != 0 {
			t.Fatal("offset")
		}
		n++
	}
	if n != 1 {
		t.Fatalf("%d messages", n)
	}
	s = NewScanner(append(append([]byte(nil), r...), "trailing"...), Options{})
	for s.Next() {
	}
	wantErr(t, s.Err(), ErrMagic, len(r))
}

func TestSerialAndBare(t *testing.T) {
	r := strRecord(t, "x")[16:]
	var serial, bare []byte
	for range 3 {
		serial = append(AppendSerialHeader(serial), r...)
		bare = append(bare, r...)
	}
	if got := len(scanAll(t, bare, Options{Framing: FramingBare})); got != 3 {
		t.Fatalf("bare: %d", got)
	}
	ms := scanAll(t, serial, Options{Framing: FramingSerial})
	if len(ms) != 3 || ms[1].Offset() != len(r)+4 || ms[1].HasStorageHeader() || ms[1].ECU() != MakeID("ECU1") {
		t.Fatalf("serial: %d", len(ms))
	}
	// Resync on DLS\x01 after junk inside the stream.
	junk := append(append(append([]byte(nil), serial[:len(r)+4]...), "junkDLS"...), serial[len(r)+4:]...)
	s := NewScanner(junk, Options{Framing: FramingSerial})
	n := 0
	for s.Next() {
		n++
	}
	if n != 3 || s.Skipped() != 7 || s.Err() != nil {
		t.Fatalf("serial resync: %d messages, skipped %d, %v", n, s.Skipped(), s.Err())
	}
	// Bare framing cannot resync.
	s = NewScanner(append([]byte{0}, bare...), Options{Framing: FramingBare})
	if s.Next() {
		t.Fatal("bare junk accepted")
	}
	wantErr(t, s.Err(), ErrVersion, 0)
}
