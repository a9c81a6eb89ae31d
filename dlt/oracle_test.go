package dlt

import (
	"bytes"
	"os"
	"strconv"
	"testing"
	"time"
)

// captures are the shared dlt-receive files with their dlt-convert -a
// oracles (testdata/README.md) and their message counts.
var captures = []struct {
	name string
	msgs int
}{
	{"kpi-odd", 452},
	{"kpi-huge-argv0", 250},
	{"excerpt-irq-strtok-race", 34},
}

func readCapture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name + ".dlt")
	if err != nil {
		t.Fatal(err)
	}
	return b[:len(b):len(b)]
}

// appendOracleLine renders one `TZ=UTC dlt-convert -a` line: the index,
// a space, then the line made of its two parts as a caller that makes the
// payload text once does: Message.AppendHeaderText, " [",
// Message.AppendPayloadText and "]". Message.AppendText must write the
// same bytes. The callers compare it with dlt-convert's line.
func appendOracleLine(t testing.TB, b []byte, idx int, m Message) []byte {
	t.Helper()
	b = strconv.AppendInt(b, int64(idx), 10)
	b = append(b, ' ')
	at := len(b)
	b = append(m.AppendHeaderText(b), " ["...)
	b = append(m.AppendPayloadText(b), ']')
	whole, err := m.AppendText(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(whole, b[at:]) {
		t.Errorf("message at %d: AppendText %q, AppendHeaderText + payload %q", m.Offset(), whole, b[at:])
	}
	return b
}

// TestDateTime checks the calendar conversion against package time over
// the whole uint32 range of storage-header seconds.
func TestDateTime(t *testing.T) {
	secs := []uint32{0, 1, 59, 60, 86399, 86400, 951782400, 951868800, 1795315932, 4102444800, 1<<32 - 1}
	for i := uint64(0); i < 1<<32; i += 7919 * 86400 / 7 {
		secs = append(secs, uint32(i))
	}
	for _, s := range secs {
		got := string(appendDateTime(nil, s))
		want := time.Unix(int64(s), 0).UTC().Format("2006/01/02 15:04:05")
		if got != want {
			t.Fatalf("%d: %s, want %s", s, got, want)
		}
	}
}

// TestCapturesMatchOracle checks every message of every capture, header
// fields and argument texts, against dlt-convert -a: AppendText, and the
// line made of AppendHeaderText and AppendPayloadText.
func TestCapturesMatchOracle(t *testing.T) {
	for _, c := range captures {
		t.Run(c.name, func(t *testing.T) {
			data := readCapture(t, c.name)
			want, err := os.ReadFile("testdata/" + c.name + ".ascii.txt")
			if err != nil {
				t.Fatal(err)
			}
			lines := bytes.Split(bytes.TrimSuffix(want, []byte("\n")), []byte("\n"))
			s := NewScanner(data, Options{NoResync: true})
			n := 0
			var line []byte
			for s.Next() {
				m := s.Message()
				if n >= len(lines) {
					t.Fatalf("more messages than oracle lines (%d)", len(lines))
				}
				line = appendOracleLine(t, line[:0], n, m)
				if !bytes.Equal(line, lines[n]) {
					t.Errorf("message %d at offset %d:\n got %q\nwant %q", n, m.Offset(), line, lines[n])
				}
				n++
			}
			if err := s.Err(); err != nil {
				t.Fatal(err)
			}
			if n != c.msgs || n != len(lines) || s.Skipped() != 0 || s.Offset() != len(data) {
				t.Fatalf("messages %d, want %d (oracle lines %d); skipped %d; end %d of %d",
					n, c.msgs, len(lines), s.Skipped(), s.Offset(), len(data))
			}
		})
	}
}
