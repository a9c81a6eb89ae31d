package pduwire

import (
	"bytes"
	"io"
	"runtime"
	"testing"
)

// chunked hands out its bytes at most n at a time, as a TCP connection does.
type chunked struct {
	b []byte
	n int
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.b)
	c.b = c.b[k:]
	return k, nil
}

// A PDU of the default client limit (64 MiB) arriving 64 KiB at a time
// costs at most twice its size in allocation: the buffer doubles as the
// body arrives instead of growing by a chunk and copying everything each
// time (quadratic in the PDU's size).
func TestReaderBigPDUAllocation(t *testing.T) {
	n := DefaultMaxPDULen
	pdu := AppendHeader(make([]byte, 0, n), Header{Len: uint32(n), Type: TypeResult})
	pdu = append(pdu, bytes.Repeat([]byte{0x5a}, n-HeaderLen)...)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := NewReader(&chunked{b: pdu, n: 64 << 10}, Options{})
	ok := r.Next()
	runtime.ReadMemStats(&after)
	if !ok {
		t.Fatal(r.Err())
	}
	p := r.PDU()
	if len(p.Bytes) != n || !bytes.Equal(p.Bytes[n-4:], []byte{0x5a, 0x5a, 0x5a, 0x5a}) {
		t.Fatalf("got %d bytes", len(p.Bytes))
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 2*uint64(n) {
		t.Errorf("reading a %d-byte PDU allocated %d bytes (%.1fx)", n, got, float64(got)/float64(n))
	}
}

// A peer that announces a big PDU and stalls costs no more than four
// times what it sent, plus one chunk: the buffer grows with the bytes that
// arrive, not with the announced length.
func TestReaderStalledPeerMemory(t *testing.T) {
	head := AppendHeader(nil, Header{Len: uint32(DefaultMaxPDULen), Type: TypeResult})
	sent := append(head, make([]byte, 100<<10)...)
	r := NewReader(&chunked{b: sent, n: 4 << 10}, Options{})
	if r.Next() || r.Err() == nil {
		t.Fatal("a truncated PDU was accepted")
	}
	if c := cap(r.buf); c > 4*len(sent)+readChunk {
		t.Errorf("buffer of %d bytes for %d received", c, len(sent))
	}
}
