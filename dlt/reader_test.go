package dlt

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"
)

// scanResult is what a Scanner or Reader reports for one input.
type scanResult struct {
	offsets               []int
	skipped, resyncs, end int
	err, skipErr          string
}

func scanResultOf(data []byte, opt Options) scanResult {
	var r scanResult
	s := NewScanner(data, opt)
	for s.Next() {
		r.offsets = append(r.offsets, s.Message().Offset())
	}
	r.skipped, r.resyncs, r.end = s.Skipped(), s.Resyncs(), s.Offset()
	if s.Err() != nil {
		r.err = s.Err().Error()
	}
	if s.SkipError() != nil {
		r.skipErr = s.SkipError().Error()
	}
	return r
}

// readResultOf reads src with a Reader and checks each message's bytes
// against data at its offset.
func readResultOf(t testing.TB, data []byte, src io.Reader, opt Options) scanResult {
	return readAll(t, data, NewReader(src, opt))
}

// readAll is readResultOf with a Reader made by the caller.
func readAll(t testing.TB, data []byte, rd *Reader) scanResult {
	var r scanResult
	for rd.Next() {
		m := rd.Message()
		if !bytes.Equal(m.Bytes(), data[m.Offset():m.Offset()+len(m.Bytes())]) {
			t.Fatalf("message at %d has other bytes than the input", m.Offset())
		}
		r.offsets = append(r.offsets, m.Offset())
	}
	r.skipped, r.resyncs, r.end = rd.Skipped(), rd.Resyncs(), rd.Offset()
	if rd.Err() != nil {
		r.err = rd.Err().Error()
	}
	if rd.SkipError() != nil {
		r.skipErr = rd.SkipError().Error()
	}
	return r
}

// checkResults fails t when got, what a walker made of input i cut as
// name, is not want, the Scanner's verdict.
func checkResults(t *testing.T, walker string, i int, name string, opt Options, got, want scanResult) {
	t.Helper()
	if !equalResults(got, want) {
		t.Fatalf("input %d %s %+v: %s %d msgs skipped %d resyncs %d err %q; scanner %d %d %d %q",
			i, name, opt, walker, len(got.offsets), got.skipped, got.resyncs, got.err,
			len(want.offsets), want.skipped, want.resyncs, want.err)
	}
}

func equalResults(a, b scanResult) bool {
	return a.skipped == b.skipped && a.resyncs == b.resyncs && a.err == b.err && a.skipErr == b.skipErr &&
		(a.err != "" || a.end == b.end) && len(a.offsets) == len(b.offsets) && sameInts(a.offsets, b.offsets)
}

func sameInts(a, b []int) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// corruptions returns damaged copies of data: bytes flipped, inserted
// and removed at pseudo-random places.
func corruptions(data []byte, n int) [][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	var out [][]byte
	for range n {
		b := append([]byte(nil), data...)
		for range 1 + rng.IntN(6) {
			at := rng.IntN(len(b))
			switch rng.IntN(3) {
			case 0:
				b[at] ^= byte(1 + rng.IntN(255))
			case 1:
				b = append(b[:at], append([]byte("DLT\x01junk"), b[at:]...)...)
			case 2:
				b = append(b[:at], b[min(len(b), at+1+rng.IntN(100)):]...)
			}
		}
		out = append(out, b)
	}
	return out
}

// capturesAndDamage are the captures, each followed by eight damaged
// copies of it.
func capturesAndDamage(t *testing.T) [][]byte {
	var inputs [][]byte
	for _, c := range captures {
		data := readCapture(t, c.name)
		inputs = append(inputs, data)
		inputs = append(inputs, corruptions(data, 8)...)
	}
	return inputs
}

// walkOptions are the options the walkers are compared under: the
// defaults, a small message limit, and that limit without resync.
var walkOptions = []Options{{}, {MaxMessageLen: 1500}, {MaxMessageLen: 1500, NoResync: true}}

// TestReaderMatchesScanner: the streaming Reader, fed in small and odd
// pieces through a window much smaller than the input, reports exactly
// what the Scanner reports on the whole input, intact or damaged.
func TestReaderMatchesScanner(t *testing.T) {
	for i, data := range capturesAndDamage(t) {
		for _, opt := range walkOptions {
			want := scanResultOf(data, opt)
			for name, src := range map[string]io.Reader{
				"whole":    bytes.NewReader(data),
				"one byte": iotest.OneByteReader(bytes.NewReader(data)),
				"half":     iotest.HalfReader(bytes.NewReader(data)),
				"data+EOF": iotest.DataErrReader(bytes.NewReader(data)),
			} {
				if name == "one byte" && i%3 != 0 {
					continue // slow; a few inputs suffice
				}
				checkResults(t, "reader", i, name, opt, readResultOf(t, data, src, opt), want)
			}
		}
	}
}

// TestReaderReset: one Reader, Reset from each input to the next (some
// of which end in an error or mid-resynchronisation), reports for each
// exactly what the Scanner reports on it.
func TestReaderReset(t *testing.T) {
	for _, opt := range walkOptions {
		rd := NewReader(nil, opt)
		for i, data := range capturesAndDamage(t) {
			rd.Reset(iotest.HalfReader(bytes.NewReader(data)))
			checkResults(t, "reset reader", i, "half", opt, readAll(t, data, rd), scanResultOf(data, opt))
		}
	}
}

func TestReaderSerialAndBare(t *testing.T) {
	r := strRecord(t, "x")[16:]
	var serial, bare []byte
	for range 500 {
		serial = append(AppendSerialHeader(serial), r...)
		bare = append(bare, r...)
	}
	serial = append(serial[:1000], append([]byte("junk"), serial[1000:]...)...)
	for _, tc := range []struct {
		data []byte
		opt  Options
	}{
		{serial, Options{Framing: FramingSerial, MaxMessageLen: 100}},
		{bare, Options{Framing: FramingBare, MaxMessageLen: 100}},
		{append(append([]byte(nil), bare[:1000]...), 0xFF), Options{Framing: FramingBare, MaxMessageLen: 100}},
		{append(append([]byte(nil), bare...), 0xFF), Options{Framing: FramingBare, MaxMessageLen: 100}},
	} {
		want := scanResultOf(tc.data, tc.opt)
		got := readResultOf(t, tc.data, iotest.HalfReader(bytes.NewReader(tc.data)), tc.opt)
		if !equalResults(got, want) {
			t.Fatalf("%+v: reader %+v, scanner %+v", tc.opt, got, want)
		}
	}
}

type zeroReader struct{}

func (zeroReader) Read([]byte) (int, error) { return 0, nil }

func TestReaderSourceErrors(t *testing.T) {
	data := readCapture(t, "excerpt-irq-strtok-race")
	rd := NewReader(iotest.TimeoutReader(bytes.NewReader(data)), Options{MaxMessageLen: 1500})
	n := 0
	for rd.Next() {
		n++
	}
	// The first read fills the buffer (6 KiB of 7 KiB), the second fails:
	// the complete messages are returned, then the truncated one fails.
	if n == 0 || n >= 34 {
		t.Fatalf("%d messages before the read error", n)
	}
	if !errors.Is(rd.Err(), ErrTruncated) {
		t.Fatalf("err %v", rd.Err())
	}
	rd = NewReader(io.MultiReader(bytes.NewReader(data), iotest.ErrReader(errors.New("boom"))), Options{})
	n = 0
	for rd.Next() {
		n++
	}
	if n != 34 || rd.Err() == nil || rd.Err().Error() != "boom" {
		t.Fatalf("%d messages, err %v", n, rd.Err())
	}
	rd = NewReader(zeroReader{}, Options{})
	if rd.Next() || !errors.Is(rd.Err(), io.ErrNoProgress) {
		t.Fatalf("zero reader: %v", rd.Err())
	}
}

// FuzzReader checks that the Reader and the Scanner agree on any input.
func FuzzReader(f *testing.F) {
	eachSeedRecord(f, func(m Message) { f.Add(m.Bytes(), uint8(0)) })
	f.Add(readCapture(f, "excerpt-irq-strtok-race"), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		opt := Options{Framing: Framing(mode % 3), MaxMessageLen: 64 + int(mode>>2)*16, NoResync: mode&0x80 != 0}
		want := scanResultOf(data, opt)
		got := readResultOf(t, data, iotest.HalfReader(bytes.NewReader(data)), opt)
		if !equalResults(got, want) {
			t.Fatalf("%+v: reader %+v, scanner %+v", opt, got, want)
		}
	})
}

func BenchmarkReader(b *testing.B) {
	data := readCapture(b, "kpi-odd")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	br := bytes.NewReader(data)
	for b.Loop() {
		br.Reset(data)
		rd := NewReader(br, Options{})
		for rd.Next() {
		}
	}
}
