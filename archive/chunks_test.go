package archive

import (
	"io"
	"math/rand/v2"
	"testing"
)

// TestChunksAtReadsAsBytes: a file held in chunks reads, at any offset
// and length, across chunk boundaries and past the end, what the same
// bytes read by bytesAt do, errors included.
func TestChunksAtReadsAsBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 3*chunkSize+12345)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	c := &chunksAt{size: int64(len(b))}
	for off := 0; off < len(b); off += chunkSize {
		c.chunks = append(c.chunks, b[off:min(off+chunkSize, len(b))])
	}
	want := &bytesAt{b}
	offs := []int64{-1, 0, chunkSize - 1, chunkSize, 2*chunkSize - 3, int64(len(b)) - 1, int64(len(b)), int64(len(b)) + 5}
	for range 200 {
		offs = append(offs, rng.Int64N(int64(len(b))))
	}
	for _, off := range offs {
		for _, n := range []int{0, 1, 4, 4096, chunkSize + 7, 2*chunkSize + 1} {
			p, q := make([]byte, n), make([]byte, n)
			gn, gerr := c.ReadAt(p, off)
			wn, werr := want.ReadAt(q, off)
			if gn != wn || gerr != werr || string(p[:gn]) != string(q[:wn]) {
				t.Fatalf("ReadAt(%d bytes, %d): %d, %v; bytes read %d, %v", n, off, gn, gerr, wn, werr)
			}
		}
	}
	if _, err := c.ReadAt(make([]byte, 1), c.size); err != io.EOF {
		t.Errorf("ReadAt at the end: %v, want io.EOF", err)
	}
}
