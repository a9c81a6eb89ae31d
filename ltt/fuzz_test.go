package ltt_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/perfwire/perfwire/ltt"
)

// reframe writes the first n events of the sample's cpu/0 into v2 blocks
// of size bs: real payloads in small blocks for fuzz seeds.
func reframe(t testing.TB, n, bs int, big bool) []byte {
	src := sampleReader(t)
	blk, err := src.Block(readCPU(t, "0"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := ltt.NewDecoder(ltt.Options{BigEndian: big, Arch: ltt.ILP32, BlockSize: bs}, ltt.Core())
	if err != nil {
		t.Fatal(err)
	}
	w := ltt.NewWriter(r, nil)
	i := 0
	for ev, err := range blk.Events() {
		if err != nil || i >= n {
			break
		}
		i++
		if ev.ID == ltt.IDBlockStart || ev.ID == ltt.IDBlockEnd {
			continue
		}
		payload := ev.Payload().Bytes()
		if big {
			payload = reencode(r.Layout(), nil, ev.Payload())
		}
		if err := w.Event(ev.ID, ev.Cycles, payload); err != nil {
			t.Fatal(err)
		}
	}
	return finish(t, w)
}

// reencode writes v again in layout l (another byte order), member by
// member; sequence counts and union tags are re-encoded too.
func reencode(l ltt.Layout, b []byte, v ltt.Value) []byte {
	switch v.Kind() {
	case ltt.KindString:
		return l.AppendString(b, v.Text())
	case ltt.KindInt, ltt.KindUint, ltt.KindEnum:
		return l.AppendUint(b, v.Type().Size, v.Uint())
	case ltt.KindFloat:
		return l.AppendFloat(b, v.Type().Size, v.Float())
	case ltt.KindSequence:
		b = l.AppendUint(b, v.Type().Size, uint64(v.Len()))
	case ltt.KindUnion:
		b = l.AppendUint(b, v.Type().Size, v.Uint())
	}
	it := v.Iter()
	for it.Next() {
		b = reencode(l, b, it.Value())
	}
	return b
}

// TestReframeBigEndian re-writes every event of both sample CPUs as a
// big-endian v2 trace in 64 KiB blocks and reads it back: the per-id
// counts of docs/ltt.md §14 survive, and so do cycles and payload values.
func TestReframeBigEndian(t *testing.T) {
	for _, g := range goldens {
		src := sampleReader(t)
		blk, err := src.Block(readCPU(t, g.cpu))
		if err != nil {
			t.Fatal(err)
		}
		r, err := ltt.NewDecoder(ltt.Options{BigEndian: true, Arch: ltt.ILP32, BlockSize: 65536}, ltt.Core())
		if err != nil {
			t.Fatal(err)
		}
		w := ltt.NewWriter(r, nil)
		var cycles []uint64
		var payloads []string
		for ev, err := range blk.Events() {
			if err != nil {
				t.Fatal(err)
			}
			if ev.ID == ltt.IDBlockStart || ev.ID == ltt.IDBlockEnd {
				continue
			}
			p := reencode(r.Layout(), nil, ev.Payload())
			if err := w.Event(ev.ID, ev.Cycles, p); err != nil {
				t.Fatal(err)
			}
			cycles = append(cycles, ev.Cycles)
			payloads = append(payloads, string(ev.Payload().Bytes()))
		}
		file := finish(t, w)
		tf := r.Tracefile(bytes.NewReader(file), int64(len(file)))
		counts := map[uint16]int{}
		i := 0
		for b, err := range tf.Blocks() {
			if err != nil {
				t.Fatal(err)
			}
			for ev, err := range b.Events() {
				if err != nil {
					t.Fatal(err)
				}
				counts[ev.ID]++
				if ev.ID == ltt.IDBlockStart || ev.ID == ltt.IDBlockEnd {
					continue
				}
				// back to little-endian: must equal the original bytes
				if ev.Cycles != cycles[i] || string(reencode(ltt.Layout{Arch: ltt.ILP32}, nil, ev.Payload())) != payloads[i] {
					t.Fatalf("cpu/%s event %d differs", g.cpu, i)
				}
				i++
			}
		}
		if counts[ltt.IDBlockStart] != tf.NumBlocks() || tf.NumBlocks() < 10 {
			t.Errorf("%d blocks", tf.NumBlocks())
		}
		for id, c := range g.counts {
			if id != ltt.IDBlockStart && id != ltt.IDBlockEnd && counts[id] != c {
				t.Errorf("cpu/%s id %d: %d events, want %d", g.cpu, id, counts[id], c)
			}
		}
	}
}

// FuzzBlock feeds arbitrary bytes to the block reader. The first byte
// picks the byte order and version; the rest is one block. Invariants:
// no panic; a block that walks cleanly re-writes, event for event, into
// blocks that read back with the same ids, cycles and payloads.
func FuzzBlock(f *testing.F) {
	for _, big := range []bool{false, true} {
		file := reframe(f, 400, 1024, big)
		for i := 0; i+1024 <= len(file) && i < 4*1024; i += 1024 {
			f.Add(append([]byte{map[bool]byte{false: 0, true: 1}[big]}, file[i:i+1024]...))
		}
		for _, v := range []ltt.Version{ltt.Version1, ltt.Version2} {
			f.Add(append([]byte{map[bool]byte{false: 0, true: 1}[big] | byte(v)<<1}, workedExample(v, big)...))
		}
	}
	// The sample's first kilobyte with a v1 trailer pointing at a copy of
	// its block_end.
	head := readCPU(f, "0")[:1024]
	end := readCPU(f, "0")[774284 : 774284+26]
	blk := append(append([]byte{}, head[:1024-30]...), end...)
	blk = append(blk, 30, 0, 0, 0)
	f.Add(append([]byte{0}, blk...))

	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 1 || len(data) > 1<<16 {
			return
		}
		big, v := data[0]&1 == 1, ltt.Version(data[0]>>1%3)
		b := data[1:]
		r, err := ltt.NewDecoder(ltt.Options{BigEndian: big, Arch: ltt.ILP32, BlockSize: len(b), Version: v}, ltt.Core())
		if err != nil {
			if !errors.Is(err, ltt.ErrBlockSize) {
				t.Fatal(err)
			}
			return
		}
		blk, err := r.Block(b)
		if err != nil {
			if _, ok := errors.AsType[*ltt.ParseError](err); !ok {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		type rec struct {
			id      uint16
			payload string
		}
		var evs []rec
		s := blk.Scanner()
		for s.Next() {
			ev := s.Event()
			if ev.Time < blk.StartTime() && blk.EndTime() >= blk.StartTime() {
				t.Fatalf("time %d before block start %d", ev.Time, blk.StartTime())
			}
			if ev.ID != ltt.IDBlockStart && ev.ID != ltt.IDBlockEnd {
				evs = append(evs, rec{ev.ID, string(ev.Payload().Bytes())})
			}
		}
		if err := s.Err(); err != nil {
			if _, ok := errors.AsType[*ltt.ParseError](err); !ok {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if s.Offset() != blk.EndOffset+26 {
			t.Fatalf("walk ended at %d, block_end at %d", s.Offset(), blk.EndOffset)
		}
		// Re-write with increasing cycles and read back.
		w := ltt.NewWriter(r, nil)
		var kept []rec
		for i, e := range evs {
			if err := w.Event(e.id, uint64(i), []byte(e.payload)); err != nil {
				t.Fatalf("re-write event %d (id %d): %v", i, e.id, err)
			}
			kept = append(kept, e)
		}
		out := finish(t, w)
		var got []rec
		// The writer always produces v2; read it back with detection.
		r2, _ := ltt.NewDecoder(ltt.Options{BigEndian: big, Arch: ltt.ILP32, BlockSize: len(b)}, ltt.Core())
		tf := r2.Tracefile(bytes.NewReader(out), int64(len(out)))
		for blk, err := range tf.Blocks() {
			if err != nil {
				t.Fatal(err)
			}
			for ev, err := range blk.Events() {
				if err != nil {
					t.Fatal(err)
				}
				if ev.ID != ltt.IDBlockStart && ev.ID != ltt.IDBlockEnd {
					got = append(got, rec{ev.ID, string(ev.Payload().Bytes())})
				}
			}
		}
		if len(got) != len(kept) {
			t.Fatalf("read back %d events, wrote %d", len(got), len(kept))
		}
		for i := range got {
			if got[i] != kept[i] {
				t.Fatalf("event %d differs", i)
			}
		}
	})
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
