package archive

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

// memSpill is a SpillFile in memory; a write past failAt bytes fails as a
// full disk does, after writing what fits.
type memSpill struct {
	b      []byte
	failAt int
	closed bool
}

var errDiskFull = errors.New("no space left on device")

func (m *memSpill) Write(p []byte) (int, error) {
	if m.failAt > 0 && len(m.b)+len(p) > m.failAt {
		n := m.failAt - len(m.b)
		m.b = append(m.b, p[:n]...)
		return n, errDiskFull
	}
	m.b = append(m.b, p...)
	return len(p), nil
}

func (m *memSpill) ReadAt(p []byte, off int64) (int, error) {
	return bytes.NewReader(m.b).ReadAt(p, off)
}

func (m *memSpill) Close() error { m.closed = true; return nil }

// spillSource is n random bytes, what a decompressor would return.
func spillSource(n int) []byte {
	rng := rand.New(rand.NewPCG(3, 4))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// TestReadDecompressedSpills: a decompressed file goes to the SpillFile
// once it is past SpillAbove, the chunks read before it first, and reads
// back as the decompressor's bytes at any offset; one no larger than a
// chunk, or with no Spill, stays in memory.
func TestReadDecompressedSpills(t *testing.T) {
	src := spillSource(3*chunkSize + 777)
	for _, tc := range []struct {
		size, above int
		spills      bool
	}{
		{len(src), 1, true},
		{len(src), 2 * chunkSize, true},
		{len(src), 4 * chunkSize, false},
		{chunkSize - 1, 1, false},
		{chunkSize, 1, true},
		{2 * chunkSize, 1, true},
	} {
		b := src[:tc.size]
		var spilled *memSpill
		o := Options{SpillAbove: int64(tc.above), Spill: func() (SpillFile, error) {
			spilled = &memSpill{}
			return spilled, nil
		}}.withDefaults()
		f, c, err := readDecompressed("v.0.zst", bytes.NewReader(b), o)
		if err != nil {
			t.Fatalf("%d bytes, spill above %d: %v", tc.size, tc.above, err)
		}
		if (spilled != nil) != tc.spills || (c != nil) != tc.spills {
			t.Fatalf("%d bytes, spill above %d: spilled %v, closer %v; want a spill %v", tc.size, tc.above, spilled != nil, c != nil, tc.spills)
		}
		if tc.spills && !bytes.Equal(spilled.b, b) {
			t.Fatalf("%d bytes, spill above %d: the spill file holds %d bytes, not the decompressed ones", tc.size, tc.above, len(spilled.b))
		}
		if f.Size != int64(len(b)) {
			t.Fatalf("size %d, want %d", f.Size, len(b))
		}
		for _, off := range []int{0, 1, chunkSize - 3, chunkSize, len(b) - 10} {
			if off+10 > len(b) {
				continue
			}
			p := make([]byte, 10)
			if n, err := f.R.ReadAt(p, int64(off)); n != 10 || err != nil || !bytes.Equal(p, b[off:off+10]) {
				t.Fatalf("%d bytes, spill above %d: ReadAt(10, %d) = %d, %v, %x; want %x", tc.size, tc.above, off, n, err, p, b[off:off+10])
			}
		}
	}
	// No Spill: memory, whatever the size.
	f, c, err := readDecompressed("v.0.zst", bytes.NewReader(src), Options{SpillAbove: 1}.withDefaults())
	if _, ok := f.R.(*chunksAt); err != nil || c != nil || !ok {
		t.Fatalf("without Spill: %T, closer %v, %v; want chunks in memory", f.R, c != nil, err)
	}
}

// TestReadDecompressedSpillLimit: MaxDecompressed bounds a spilled file
// as it does one in memory, with ErrLimit, and the SpillFile is closed.
func TestReadDecompressedSpillLimit(t *testing.T) {
	src := spillSource(3*chunkSize + 777)
	var spilled *memSpill
	max := int64(2*chunkSize + 5)
	o := Options{SpillAbove: 1, MaxDecompressed: max, Spill: func() (SpillFile, error) {
		spilled = &memSpill{}
		return spilled, nil
	}}.withDefaults()
	_, c, err := readDecompressed("v.0.zst", bytes.NewReader(src), o)
	var pe *ParseError
	if !errors.As(err, &pe) || !errors.Is(err, ErrLimit) || pe.File != "v.0.zst" || pe.Limit != max || pe.Value <= max {
		t.Fatalf("over MaxDecompressed: %v; want ErrLimit on v.0.zst, limit %d", err, max)
	}
	if c != nil || spilled == nil || !spilled.closed {
		t.Errorf("over MaxDecompressed: closer %v, spill file closed %v; want it closed and not handed back", c != nil, spilled != nil && spilled.closed)
	}
}

// TestReadDecompressedSpillFull: a SpillFile whose write fails (a full
// disk), at the first chunks or later, is an error naming the file and
// the offset the write stopped at, and wrapping the write's error; the
// SpillFile is closed. A Spill that cannot create one fails the same way.
func TestReadDecompressedSpillFull(t *testing.T) {
	src := spillSource(3*chunkSize + 777)
	for _, failAt := range []int{100, chunkSize + 100, 2*chunkSize + 100, 3 * chunkSize} {
		var spilled *memSpill
		o := Options{SpillAbove: 1, Spill: func() (SpillFile, error) {
			spilled = &memSpill{failAt: failAt}
			return spilled, nil
		}}.withDefaults()
		_, c, err := readDecompressed("h.0.zst", bytes.NewReader(src), o)
		want := "h.0.zst: archive: spill write at offset " + strconv.Itoa(failAt) + ": " + errDiskFull.Error()
		if !errors.Is(err, errDiskFull) || err.Error() != want {
			t.Fatalf("spill full at %d: %v; want %q", failAt, err, want)
		}
		if c != nil || !spilled.closed {
			t.Errorf("spill full at %d: closer %v, closed %v; want it closed and not handed back", failAt, c != nil, spilled.closed)
		}
	}
	o := Options{SpillAbove: 1, Spill: func() (SpillFile, error) { return nil, errDiskFull }}.withDefaults()
	_, _, err := readDecompressed("h.0.zst", bytes.NewReader(src), o)
	if !errors.Is(err, errDiskFull) || !strings.HasPrefix(err.Error(), "h.0.zst: archive: spill open") {
		t.Fatalf("no spill file: %v", err)
	}
}

// TestOpenFSClosesSpill: when the archive cannot be opened (its volume,
// spilled, is not a volume), OpenFS closes the SpillFile and names the
// volume.
func TestOpenFSClosesSpill(t *testing.T) {
	meta, err := os.ReadFile("testdata/m3.meta")
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{
		"m3.meta":  {Data: meta},
		"m3.0.zst": {Data: spillSource(2*chunkSize + 3)},
	}
	var spilled []*memSpill
	o := Options{
		Decompressors: map[string]Decompressor{".zst": func(r io.Reader) (io.Reader, error) { return r, nil }},
		SpillAbove:    1,
		Spill: func() (SpillFile, error) {
			spilled = append(spilled, &memSpill{})
			return spilled[len(spilled)-1], nil
		},
	}
	_, err = OpenFS(fsys, "m3", o)
	if err == nil || !strings.Contains(err.Error(), "m3.0.zst") {
		t.Fatalf("OpenFS over a damaged volume: %v; want an error naming m3.0.zst", err)
	}
	if len(spilled) != 1 || !spilled[0].closed {
		t.Fatalf("spill files %d, want 1, closed", len(spilled))
	}
}
