package pduwire_test

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/pduwire"
)

// stream is one direction of a captured conversation.
type stream struct {
	conv, dir string
	data      []byte
	pdus      []pduwire.PDU
}

// captures returns the conversation names (conv01, conv03, ...).
func captures(t testing.TB) []string {
	t.Helper()
	m, err := filepath.Glob("testdata/captures/conv*.cmd")
	if err != nil || len(m) != 17 {
		t.Fatalf("want 17 conversations in testdata/captures, got %d (%v)", len(m), err)
	}
	var convs []string
	for _, f := range m {
		convs = append(convs, strings.TrimSuffix(filepath.Base(f), ".cmd"))
	}
	return convs
}

// loadStream reads and frames one direction of a conversation.
func loadStream(t testing.TB, conv, dir string) stream {
	t.Helper()
	data, err := os.ReadFile("testdata/captures/" + conv + "." + dir + ".bin")
	if err != nil {
		t.Fatal(err)
	}
	s := stream{conv: conv, dir: dir, data: data}
	sp := pduwire.NewScanner(data, pduwire.Options{})
	for sp.Next() {
		s.pdus = append(s.pdus, sp.PDU())
	}
	if err := sp.Err(); err != nil {
		t.Fatalf("%s %s: framing: %v", conv, dir, err)
	}
	if sp.Offset() != len(data) {
		t.Fatalf("%s %s: framed %d of %d bytes", conv, dir, sp.Offset(), len(data))
	}
	return s
}

// framingOracle parses the "@off len=N type=0xT NAME from=F" lines of a
// pdus.txt file for one direction ("client" or "pmcd" side).
func framingOracle(t *testing.T, conv, dir string) []string {
	t.Helper()
	f, err := os.Open("testdata/captures/" + conv + ".pdus.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := "== client -> pmcd"
	if dir == "server" {
		want = "== pmcd -> client"
	}
	var lines []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "== ") {
			in = strings.HasPrefix(l, want)
			continue
		}
		if in && strings.HasPrefix(l, "@") {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	return lines
}

// TestCapturesFraming checks the framer against the framing oracle.
func TestCapturesFraming(t *testing.T) {
	for _, conv := range captures(t) {
		for _, dir := range []string{"client", "server"} {
			s := loadStream(t, conv, dir)
			want := framingOracle(t, conv, dir)
			if len(want) != len(s.pdus) {
				t.Fatalf("%s %s: %d PDUs, oracle has %d", conv, dir, len(s.pdus), len(want))
			}
			for i, p := range s.pdus {
				got := "@" + strconv.FormatInt(p.Offset, 10) + " len=" + strconv.Itoa(int(p.Header.Len)) +
					" type=0x" + strconv.FormatInt(int64(p.Header.Type), 16) + " " + p.Header.Type.String() +
					" from=" + strconv.Itoa(int(p.Header.From))
				if got != want[i] {
					t.Errorf("%s %s PDU %d: got %q, oracle %q", conv, dir, i, got, want[i])
				}
			}
		}
	}
}

// samePDU compares a re-encoded PDU with the captured one. libpcp fills
// pad bytes with '~' (0x7e) where we write 0; only those may differ.
func samePDU(orig, enc []byte) (int, bool) {
	if len(orig) != len(enc) {
		return min(len(orig), len(enc)), false
	}
	for i := range orig {
		if orig[i] != enc[i] && (enc[i] != 0 || orig[i] != 0x7e) {
			return i, false
		}
	}
	return 0, true
}

// TestCapturesRoundTrip decodes every captured PDU completely and
// re-encodes it to the same bytes, modulo libpcp's '~' pad bytes.
func TestCapturesRoundTrip(t *testing.T) {
	n := 0
	for _, conv := range captures(t) {
		for _, dir := range []string{"client", "server"} {
			s := loadStream(t, conv, dir)
			for i, p := range s.pdus {
				m, err := pduwire.Decode(p.Bytes)
				if err != nil {
					t.Errorf("%s %s PDU %d (%v @%d): %v", conv, dir, i, p.Header.Type, p.Offset, err)
					continue
				}
				enc := m.Append(nil, p.Header.From)
				if off, ok := samePDU(p.Bytes, enc); !ok {
					t.Errorf("%s %s PDU %d (%v @%d): re-encoding differs at byte %d\norig % x\nenc  % x",
						conv, dir, i, p.Header.Type, p.Offset, off, p.Bytes, enc)
				}
				n++
			}
		}
	}
	t.Logf("%d PDUs decoded and re-encoded", n)
}

// TestCapturesReader reads every stream through the io.Reader framer in
// small pieces and expects the same PDUs as the Scanner.
func TestCapturesReader(t *testing.T) {
	for _, conv := range captures(t) {
		for _, dir := range []string{"client", "server"} {
			s := loadStream(t, conv, dir)
			r := pduwire.NewReader(&trickle{b: s.data, n: 7}, pduwire.Options{})
			for i := 0; ; i++ {
				if !r.Next() {
					if i != len(s.pdus) || r.Err() != nil {
						t.Fatalf("%s %s: stopped after %d PDUs: %v", conv, dir, i, r.Err())
					}
					break
				}
				p := r.PDU()
				if !bytes.Equal(p.Bytes, s.pdus[i].Bytes) || p.Offset != s.pdus[i].Offset {
					t.Fatalf("%s %s PDU %d differs", conv, dir, i)
				}
			}
		}
	}
}

// TestCapturesReaderBuffers reads each server stream through a source
// that returns whatever the Reader's buffer has room for, and after every
// few Read calls a timeout error (as a connection with a deadline does),
// and expects the Scanner's PDUs with fewer Read calls than PDUs: a PDU
// that has arrived whole costs one read, header and body together, and a
// failed read loses nothing.
func TestCapturesReaderBuffers(t *testing.T) {
	for _, conv := range captures(t) {
		s := loadStream(t, conv, "server")
		src := &flaky{b: s.data}
		r := pduwire.NewReader(src, pduwire.Options{})
		for i := 0; ; {
			if !r.Next() {
				if errors.Is(r.Err(), errFlaky) {
					continue
				}
				if i != len(s.pdus) || r.Err() != nil {
					t.Fatalf("%s: stopped after %d PDUs: %v", conv, i, r.Err())
				}
				break
			}
			p := r.PDU()
			if !bytes.Equal(p.Bytes, s.pdus[i].Bytes) || p.Offset != s.pdus[i].Offset {
				t.Fatalf("%s PDU %d differs", conv, i)
			}
			i++
		}
		if len(s.pdus) > 4 && src.reads >= len(s.pdus) {
			t.Errorf("%s: %d reads for %d PDUs", conv, src.reads, len(s.pdus))
		}
	}
}

var errFlaky = errors.New("i/o timeout")

// flaky is an io.Reader that fills as much of p as it can, but every
// third call fails with errFlaky instead (and returns nothing).
type flaky struct {
	b     []byte
	calls int
	reads int // calls that returned bytes
}

func (r *flaky) Read(p []byte) (int, error) {
	if r.calls++; r.calls%3 == 0 {
		return 0, errFlaky
	}
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	r.reads++
	return n, nil
}

// trickle is an io.Reader that returns at most n bytes per Read.
type trickle struct {
	b []byte
	n int
}

func (r *trickle) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), r.n)], r.b)
	r.b = r.b[k:]
	return k, nil
}
