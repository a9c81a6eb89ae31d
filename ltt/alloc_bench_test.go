package ltt_test

import (
	"testing"

	"github.com/perfwire/perfwire/ltt"
)

// walkAll reads every event of b and every leaf of its payload.
func walkAll(r *ltt.Decoder, b []byte) (events int, sum uint64) {
	blk, err := r.Block(b)
	if err != nil {
		panic(err)
	}
	s := blk.Scanner()
	for s.Next() {
		ev := s.Event()
		events++
		it := ev.Payload().Iter()
		for it.Next() {
			sum += it.Value().Uint() + uint64(len(it.Value().Text()))
		}
	}
	if s.Err() != nil {
		panic(s.Err())
	}
	return events, sum
}

func TestAllocsBlockWalk(t *testing.T) {
	r := sampleReader(t)
	data := readCPU(t, "1")
	if n := testing.AllocsPerRun(5, func() { walkAll(r, data) }); n != 0 {
		t.Errorf("block walk with field iteration: %v allocs, want 0", n)
	}
	tf := r.Tracefile(bytesReader(data), int64(len(data)))
	tf.Block(0) // allocates the buffer once
	if n := testing.AllocsPerRun(5, func() {
		blk, err := tf.Block(0)
		if err != nil {
			t.Fatal(err)
		}
		s := blk.Scanner()
		for s.Next() {
		}
	}); n != 0 {
		t.Errorf("tracefile block read: %v allocs, want 0", n)
	}
}

func BenchmarkBlockScan(b *testing.B) {
	r := sampleReader(b)
	data := readCPU(b, "0")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		blk, _ := r.Block(data)
		s := blk.Scanner()
		for s.Next() {
		}
	}
}

func BenchmarkBlockFields(b *testing.B) {
	r := sampleReader(b)
	data := readCPU(b, "1")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		walkAll(r, data)
	}
}

func BenchmarkWriter(b *testing.B) {
	r := sampleReader(b)
	blk, _ := r.Block(readCPU(b, "0"))
	type ev struct {
		id      uint16
		cycles  uint64
		payload []byte
	}
	var evs []ev
	size := 0
	for e, _ := range blk.Events() {
		if e.ID != ltt.IDBlockStart && e.ID != ltt.IDBlockEnd {
			evs = append(evs, ev{e.ID, e.Cycles, e.Payload().Bytes()})
			size += 6 + len(e.Payload().Bytes())
		}
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		w := ltt.NewWriter(r, nil)
		for _, e := range evs {
			if err := w.Event(e.id, e.cycles, e.payload); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := w.Finish(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkChecksum(b *testing.B) {
	f := ltt.Core()
	b.ReportAllocs()
	for b.Loop() {
		f.Checksum()
	}
}
