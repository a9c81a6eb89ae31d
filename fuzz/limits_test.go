package fuzz

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"net"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/labels"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// allocated returns the bytes allocated while f runs: the least of three
// runs, because TotalAlloc counts the whole process and the runtime or
// the test framework may allocate while f runs (CI once saw 5.7 KB
// during a call that allocates a few hundred bytes). Noise only adds,
// so the least run is the closest to what f itself allocates.
func allocated(f func()) uint64 {
	least := uint64(math.MaxUint64)
	for range 3 {
		var a, b runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&a)
		f()
		runtime.ReadMemStats(&b)
		least = min(least, b.TotalAlloc-a.TotalAlloc)
	}
	return least
}

// header2G is a RESULT header announcing a PDU of 2 GiB − 1025 bytes,
// the largest any PCP accepts (pduwire.MaxPDULen).
func header2G() []byte {
	return pduwire.AppendHeader(nil, pduwire.Header{Len: pduwire.MaxPDULen, Type: pduwire.TypeResult})
}

// perRun returns the bytes f allocates per call, averaged over runs.
// Refusing input builds one *ParseError (about a hundred bytes), so
// "nothing big" is a bound on bytes, not a count of zero.
func perRun(runs int, f func()) uint64 {
	return allocated(func() {
		for range runs {
			f()
		}
	}) / uint64(runs)
}

// firstErr is the error that stops r's first Next, or nil if it reads a
// PDU or finds a clean end.
func firstErr(r *pduwire.Reader) error {
	r.Next()
	return r.Err()
}

// smallAlloc bounds what refusing one hostile input may allocate.
const smallAlloc = 512

// TestHugeHeaderScanner: framing a 2 GiB header from a byte slice
// allocates nothing big, with the default limit and with the largest.
func TestHugeHeaderScanner(t *testing.T) {
	hdr := header2G()
	for _, limit := range []int{0, pduwire.MaxPDULen} {
		var err error
		n := perRun(100, func() {
			s := pduwire.NewScanner(hdr, pduwire.Options{MaxPDULen: limit})
			for s.Next() {
			}
			err = s.Err()
		})
		if n > smallAlloc {
			t.Errorf("limit %d: %d bytes allocated per run", limit, n)
		}
		want := pduwire.ErrLimit
		if limit == pduwire.MaxPDULen {
			want = pduwire.ErrTruncated
		}
		if !errors.Is(err, want) {
			t.Errorf("limit %d: %v, want %v", limit, err, want)
		}
		if _, _, err := pduwire.ConsumeHeader(hdr); err != nil {
			t.Errorf("header itself is rejected: %v", err)
		}
	}
}

// TestHugeHeaderReader: the io.Reader framer refuses a 2 GiB header
// under the default limit before reading any body, and under the
// largest limit buffers only the body bytes that actually arrive.
func TestHugeHeaderReader(t *testing.T) {
	body := bytes.Repeat([]byte{0xee}, 4096)
	stream := append(header2G(), body...)
	var err error
	got := allocated(func() {
		err = firstErr(pduwire.NewReader(bytes.NewReader(stream), pduwire.Options{MaxPDULen: pduwire.ServerMaxPDULen}))
	})
	if !errors.Is(err, pduwire.ErrLimit) {
		t.Fatalf("default limit: %v, want ErrLimit", err)
	}
	if got > 64<<10 {
		t.Errorf("default limit: %d bytes allocated for a refused header", got)
	}
	got = allocated(func() {
		err = firstErr(pduwire.NewReader(bytes.NewReader(stream), pduwire.Options{MaxPDULen: pduwire.MaxPDULen}))
	})
	if !errors.Is(err, pduwire.ErrTruncated) {
		t.Fatalf("max limit: %v, want ErrTruncated", err)
	}
	if got > 1<<20 {
		t.Errorf("max limit: %d bytes allocated for %d bytes received", got, len(stream))
	}
}

// TestHugeCountsAllocateNothing: counts announcing 2^31 elements in tiny
// buffers are refused without allocating more than the error, in every
// package that reads counts.
func TestHugeCountsAllocateNothing(t *testing.T) {
	// RESULT with numpmid = 0x7fffffff in a 20-byte PDU.
	res := pduwire.AppendHeader(nil, pduwire.Header{Len: 20, Type: pduwire.TypeResult})
	res = binary.BigEndian.AppendUint32(res, 1)
	res = binary.BigEndian.AppendUint32(res, 0x7fffffff)
	// EVENT array claiming 0x7fffffff records.
	arr := binary.BigEndian.AppendUint32(nil, uint32(pcp.TypeEvent)<<24|16)
	arr = binary.BigEndian.AppendUint32(arr, 0x7fffffff)
	arr = append(arr, 0, 0, 0, 0, 0, 0, 0, 0)
	var set labels.Set
	idx := bytes.Repeat([]byte{0, 1, 1, 0, 0, 5, 0, 1}, 300)
	cases := []struct {
		name string
		run  func() error
	}{
		{"pduwire.ParseResult", func() error { _, err := pduwire.ParseResult(res); return err }},
		{"eventrec.Parse", func() error { _, err := eventrec.Parse(arr, eventrec.Options{}); return err }},
		{"labels.DecodeWire", func() error { return set.DecodeWire([]byte(`{"a":1}`), idx, labels.VerifyIndex) }},
	}
	for _, c := range cases {
		var err error
		n := perRun(50, func() { err = c.run() })
		if err == nil {
			t.Errorf("%s accepts a count far beyond its bytes", c.name)
		}
		if n > smallAlloc {
			t.Errorf("%s: %d bytes allocated refusing %v", c.name, n, err)
		}
	}
	if _, err := pduwire.Decode(res); err == nil {
		t.Errorf("Decode accepts numpmid 0x7fffffff in 20 bytes")
	}
	if got := allocated(func() { _, _ = pduwire.Decode(res) }); got > 4096 {
		t.Errorf("Decode allocates %d bytes refusing numpmid 0x7fffffff", got)
	}
}

// trickle writes b to w one byte at a time, pausing between bytes,
// until b is exhausted or a write fails.
func trickle(w io.Writer, b []byte, pause time.Duration) {
	for i := range b {
		if _, err := w.Write(b[i : i+1]); err != nil {
			return
		}
		time.Sleep(pause)
	}
}

// TestTrickleDeadline: a peer that sends a valid header and then one
// body byte every 5 ms cannot hold the reader past the deadline the
// caller set on the connection; the deadline error comes back unchanged.
func TestTrickleDeadline(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	defer server.Close()
	pdu := pduwire.AppendHeader(nil, pduwire.Header{Len: 12 + 4096, Type: pduwire.TypeText})
	pdu = append(pdu, make([]byte, 4096)...)
	go trickle(server, pdu, 5*time.Millisecond)

	start := time.Now()
	if err := client.SetReadDeadline(start.Add(300 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	err := firstErr(pduwire.NewReader(client, pduwire.Options{}))
	elapsed := time.Since(start)
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("got %v, want the connection's deadline error", err)
	}
	if elapsed > 2*time.Second {
		t.Fatalf("reader returned %v after a 300ms deadline", elapsed)
	}
}

// slowReader hands out one byte per Read until its deadline passes,
// then fails every Read with os.ErrDeadlineExceeded, as a connection
// with a read deadline does.
type slowReader struct {
	src      []byte
	deadline time.Time
	reads    int
}

func (r *slowReader) Read(p []byte) (int, error) {
	r.reads++
	if time.Now().After(r.deadline) {
		return 0, os.ErrDeadlineExceeded
	}
	if len(r.src) == 0 || len(p) == 0 {
		return 0, nil
	}
	time.Sleep(time.Millisecond)
	p[0] = r.src[0]
	r.src = r.src[1:]
	return 1, nil
}

// TestSlowReaderDeadline: over a plain io.Reader that trickles bytes and
// then reports its deadline, Next stops at the first error; it neither
// spins on the failing source nor swallows the error.
func TestSlowReaderDeadline(t *testing.T) {
	pdu := pduwire.AppendHeader(nil, pduwire.Header{Len: 12 + 1<<16, Type: pduwire.TypeText})
	pdu = append(pdu, make([]byte, 64)...)
	r := &slowReader{src: pdu, deadline: time.Now().Add(100 * time.Millisecond)}
	done := make(chan error, 1)
	go func() { err := firstErr(pduwire.NewReader(r, pduwire.Options{})); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, os.ErrDeadlineExceeded) && !errors.Is(err, io.ErrNoProgress) {
			t.Fatalf("got %v, want the source's deadline error", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Next still running 5s after a 100ms deadline")
	}
}

// zeroReader returns (0, nil), legal for an io.Reader but useless and a
// classic source of busy loops, until it has been called give times; then
// it fails, so that a reader that spins cannot spin for ever.
type zeroReader struct{ calls, give int }

func (r *zeroReader) Read([]byte) (int, error) {
	r.calls++
	if r.calls > r.give {
		return 0, errGaveUp
	}
	return 0, nil
}

var errGaveUp = errors.New("zeroReader: gave up")

// TestZeroReadsEnd: a source that never makes progress must not hold
// Next: like bufio, the framer should give up with io.ErrNoProgress
// after a few hundred empty reads.
func TestZeroReadsEnd(t *testing.T) {
	r := &zeroReader{give: 1 << 20}
	err := firstErr(pduwire.NewReader(r, pduwire.Options{}))
	if r.calls > 1000 {
		t.Fatalf("pduwire.Reader made %d empty reads before %v (finding F1)", r.calls, err)
	}
	if !errors.Is(err, io.ErrNoProgress) {
		t.Fatalf("Next on a source without progress: %v, want io.ErrNoProgress", err)
	}
}

// TestDeepLabels: label texts nested a million levels deep, as objects
// and as arrays, are refused with kind "labels_depth" (or, past the
// length limit, ErrLimit) without deep recursion or large allocations.
func TestDeepLabels(t *testing.T) {
	const depth = 1 << 20
	cases := map[string]string{
		"objects":       strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth),
		"arrays":        `{"a":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "}",
		"objects-short": strings.Repeat(`{"a":`, 100) + "1" + strings.Repeat("}", 100),
		"unclosed":      strings.Repeat(`{"a":`, 10000),
	}
	for name, str := range cases {
		text := []byte(str)
		var s labels.Set
		var err error
		got := allocated(func() {
			err = labels.Parse(&s, text, labels.Options{Dotted: true})
		})
		code := ""
		if pe, ok := errors.AsType[*labels.ParseError](err); ok {
			code = pe.Code()
		}
		if code != "labels_depth" && !errors.Is(err, labels.ErrLimit) && code != "labels_value" {
			t.Errorf("%s: %v, want labels_depth, ErrLimit or labels_value", name, err)
		}
		if got > 1<<20 {
			t.Errorf("%s: %d bytes allocated to refuse it", name, got)
		}
		// Within the length limit the depth limit must be what trips.
		if name == "objects-short" && code != "labels_depth" {
			t.Errorf("%s: %v, want labels_depth", name, err)
		}
		var n labels.Set
		if err := labels.Normalize(&n, text, nil); err == nil {
			t.Errorf("%s: Normalize accepts it", name)
		}
	}
}
