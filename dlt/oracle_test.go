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

// appendOracleID renders an id as dlt-convert does: 4 columns, padded
// with '-' from the first NUL on.
func appendOracleID(b []byte, id ID) []byte {
	n := id.Len()
	b = append(b, id[:n]...)
	for ; n < 4; n++ {
		b = append(b, '-')
	}
	return b
}

// appendOracleLine renders one `TZ=UTC dlt-convert -a` line (spec §10).
// Only the pieces our captures and the conformance test exercise are
// implemented: verbose messages, and control responses as
// "service, status, hex rest".
func appendOracleLine(t testing.TB, b []byte, idx int, m Message) []byte {
	t.Helper()
	sh := m.StorageHeader()
	b = strconv.AppendInt(b, int64(idx), 10)
	b = append(b, ' ')
	b = time.Unix(int64(sh.Seconds), 0).UTC().AppendFormat(b, "2006/01/02 15:04:05")
	b = append(b, '.')
	us := strconv.Itoa(int(sh.Microseconds))
	b = append(b, "000000"[len(us):]...)
	b = append(b, us...)
	b = append(b, ' ')
	if ts, ok := m.Timestamp(); ok {
		s := strconv.FormatUint(uint64(ts), 10)
		b = append(b, "          "[len(s):]...)
		b = append(b, s...)
	} else {
		b = append(b, "----------"...)
	}
	b = append(b, ' ')
	c := strconv.Itoa(int(m.Counter()))
	if len(c) < 3 {
		b = append(b, "000"[len(c):]...)
	}
	b = append(b, c...)
	b = append(b, ' ')
	b = appendOracleID(b, m.ECU())
	b = append(b, ' ')
	if !m.HasExtendedHeader() {
		t.Fatalf("message %d: rendering without extended header is not implemented", idx)
	}
	b = appendOracleID(b, m.AppID())
	b = append(b, ' ')
	b = appendOracleID(b, m.ContextID())
	b = append(b, ' ')
	b = append(b, m.Type().String()...)
	b = append(b, ' ')
	b = append(b, SubtypeName(m.Type(), m.Subtype())...)
	if m.Verbose() {
		b = append(b, " V "...)
	} else {
		b = append(b, " N "...)
	}
	b = strconv.AppendInt(b, int64(m.NumArgs()), 10)
	b = append(b, " ["...)
	if m.Verbose() {
		i := 0
		for a, err := range m.Args() {
			if err != nil {
				t.Fatalf("message %d: %v", idx, err)
			}
			if i > 0 {
				b = append(b, ' ')
			}
			b, _ = a.AppendText(b)
			i++
		}
	} else {
		id, ok := m.MessageID()
		if !ok || m.Type() != TypeControl || m.Subtype() != ControlResponse {
			t.Fatalf("message %d: only control responses are rendered", idx)
		}
		data := m.NonVerboseData()
		if id == 3 {
			b = append(b, "get_log_info"...)
		} else {
			b = append(b, "service("...)
			b = strconv.AppendUint(b, uint64(id), 10)
			b = append(b, ')')
		}
		if len(data) > 0 {
			b = append(b, ", "...)
			switch data[0] {
			case 0:
				b = append(b, "ok"...)
			case 1:
				b = append(b, "not_supported"...)
			case 2:
				b = append(b, "error"...)
			default:
				b = appendHexBytes(b, data[:1], ' ')
			}
			b = append(b, ", "...)
			b = appendHexBytes(b, data[1:], ' ')
		}
	}
	return append(b, ']')
}

// TestCapturesMatchOracle checks every message of every capture, header
// fields and argument texts, against dlt-convert -a.
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
