package ltt_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"os"
	"testing"

	"github.com/perfwire/perfwire/ltt"
)

// sampleConfig is smp_example's info/system.xml: ILP32, little-endian,
// 1,000,000-byte blocks, v1 converter output with microseconds.
var sampleConfig = ltt.Options{Arch: ltt.ILP32, BlockSize: 1000000, Version: ltt.VersionAuto, MicroTime: true}

func sampleReader(t testing.TB) *ltt.Decoder {
	t.Helper()
	r, err := ltt.NewDecoder(sampleConfig, ltt.Core())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func readCPU(t testing.TB, n string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/smp_example/cpu/" + n)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// golden holds docs/ltt.md §14 (checked against the README of the shared data).
type golden struct {
	cpu          string
	trailer      uint32
	endOffset    int
	events       int
	start, end   ltt.Stamp
	counts       map[uint16]int
	fsNonEmpty   int
	fsLongest    int
	fsEmpty      int
	firstNameOff int
	firstName    string
	wrapAt, hbAt int // event numbers (0-based, counting block_start)
}

var goldens = []golden{
	{
		cpu: "0", trailer: 225716, endOffset: 774284, events: 85917,
		start: ltt.Stamp{Seconds: 1467637903, Nanoseconds: 312859, Cycles: 152895982},
		end:   ltt.Stamp{Seconds: 1467637923, Nanoseconds: 309363, Cycles: 7167575867},
		counts: map[uint16]int{1: 1001, 2: 1001, 3: 20, 4: 20, 5: 10175, 6: 10175, 7: 417, 8: 19997,
			9: 40021, 10: 221, 11: 2183, 12: 81, 13: 562, 14: 16, 16: 24, 17: 1, 18: 1, 19: 1},
		fsNonEmpty: 81, fsLongest: 10, fsEmpty: 2102, firstNameOff: 503, firstName: "c.proc",
		wrapAt: 51234, hbAt: 53337,
	},
	{
		cpu: "1", trailer: 201865, endOffset: 798135, events: 87240,
		start: ltt.Stamp{Seconds: 1467637903, Nanoseconds: 313199, Cycles: 153015296},
		end:   ltt.Stamp{Seconds: 1467637923, Nanoseconds: 309360, Cycles: 7167574828},
		counts: map[uint16]int{1: 1028, 2: 1027, 5: 10038, 6: 10038, 7: 545, 8: 19997, 9: 40009,
			10: 366, 11: 3425, 12: 186, 13: 437, 14: 128, 16: 13, 17: 1, 18: 1, 19: 1},
		fsNonEmpty: 14, fsLongest: 7, fsEmpty: 3411, firstNameOff: 83380, firstName: "hdc",
		wrapAt: 51585, hbAt: 53880,
	},
}

func TestCoreChecksum(t *testing.T) {
	if got := ltt.Core().Checksum(); got != 0x06588858 || ltt.CoreChecksum != 0x06588858 {
		t.Errorf("core checksum %#08x (const %#08x), want 0x06588858", got, ltt.CoreChecksum)
	}
}

func TestGoldenSample(t *testing.T) {
	r := sampleReader(t)
	for _, g := range goldens {
		t.Run("cpu"+g.cpu, func(t *testing.T) {
			data := readCPU(t, g.cpu)
			tf := r.Tracefile(bytes.NewReader(data), int64(len(data)))
			if tf.NumBlocks() != 1 {
				t.Fatalf("%d blocks", tf.NumBlocks())
			}
			blk, err := tf.Block(0)
			if err != nil {
				t.Fatal(err)
			}
			if blk.Version != ltt.Version1 || blk.EndOffset != g.endOffset {
				t.Errorf("version %v, block_end at %d; want v1 at %d", blk.Version, blk.EndOffset, g.endOffset)
			}
			if blk.Start != g.start || blk.End != g.end {
				t.Errorf("block records %+v %+v", blk.Start, blk.End)
			}
			counts := map[uint16]int{}
			var n, fsEmpty, fsNonEmpty, longest int
			var prevTime int64
			var prevCycles uint64
			firstName := -1
			s := blk.Scanner()
			wraps, beats := uint64(0), uint64(0)
			for s.Next() {
				ev := s.Event()
				counts[ev.ID]++
				if s.Wraps() != wraps {
					if n != g.wrapAt {
						t.Errorf("wrap at event #%d, want #%d", n, g.wrapAt)
					}
					wraps = s.Wraps()
				}
				if s.Heartbeats() != beats {
					if n != g.hbAt {
						t.Errorf("heartbeat at event #%d, want #%d", n, g.hbAt)
					}
					beats = s.Heartbeats()
				}
				if ev.Time < prevTime {
					t.Fatalf("time decreases at offset %d", ev.Offset)
				}
				if ev.Time < blk.StartTime() || ev.Time > blk.EndTime() {
					t.Fatalf("time outside the block at offset %d", ev.Offset)
				}
				if ev.ID != ltt.IDBlockStart && ev.ID != ltt.IDBlockEnd && ev.Cycles < prevCycles {
					t.Fatalf("cycles decrease at offset %d", ev.Offset)
				}
				if ev.ID != ltt.IDBlockStart && ev.ID != ltt.IDBlockEnd {
					prevCycles = ev.Cycles
				}
				prevTime = ev.Time
				if ev.ID == 11 {
					name, ok := ev.Field("file_name")
					if !ok {
						t.Fatal("file_system without file_name")
					}
					if l := len(name.Text()); l == 0 {
						fsEmpty++
					} else {
						fsNonEmpty++
						longest = max(longest, l)
						if firstName < 0 {
							firstName = ev.Offset
							if string(name.Text()) != g.firstName {
								t.Errorf("first name %q", name.Text())
							}
						}
					}
				}
				n++
			}
			if err := s.Err(); err != nil {
				t.Fatal(err)
			}
			if s.Offset() != g.endOffset+26 {
				t.Errorf("walk ended at %d", s.Offset())
			}
			if n != g.events {
				t.Errorf("%d events, want %d", n, g.events)
			}
			if len(counts) != len(g.counts) {
				t.Errorf("ids %v", counts)
			}
			for id, c := range g.counts {
				if counts[id] != c {
					t.Errorf("id %d: %d events, want %d", id, counts[id], c)
				}
			}
			if wraps != 1 || beats != 1 {
				t.Errorf("wraps %d heartbeats %d", wraps, beats)
			}
			if fsEmpty != g.fsEmpty || fsNonEmpty != g.fsNonEmpty || longest != g.fsLongest {
				t.Errorf("file names: %d empty, %d non-empty, longest %d", fsEmpty, fsNonEmpty, longest)
			}
			if firstName != g.firstNameOff {
				t.Errorf("first file name at %d, want %d", firstName, g.firstNameOff)
			}
		})
	}
}

// TestGoldenFirstEvents checks the first events of cpu/0 byte for byte
// against docs/ltt.md §14, and the decoded fields of the first named file_system
// event.
func TestGoldenFirstEvents(t *testing.T) {
	want := []struct {
		off     int
		id      uint16
		tsc     uint32
		payload string
	}{
		{0, 17, 152896845, "8f607a571bc60400ee011d090000000000000000"},
		{26, 2, 152898726, ""},
		{32, 3, 152904572, "0e0040011040"},
		{44, 4, 152909034, ""},
		{50, 1, 152910927, "08beab0408"},
		{61, 14, 152948844, "030200000064000000"},
		{76, 16, 152958633, "0208000000"},
		{87, 5, 152965140, "1101"},
	}
	r := sampleReader(t)
	blk, err := r.Block(readCPU(t, "0"))
	if err != nil {
		t.Fatal(err)
	}
	s := blk.Scanner()
	for i, w := range want {
		if !s.Next() {
			t.Fatal(s.Err())
		}
		ev := s.Event()
		p := hex.EncodeToString(ev.Payload().Bytes())
		if ev.Offset != w.off || ev.ID != w.id || ev.TSC != w.tsc || p != w.payload {
			t.Errorf("event %d: off %d id %d tsc %d payload %s", i, ev.Offset, ev.ID, ev.TSC, p)
		}
	}
	for n := len(want); s.Next(); n++ {
		if n != 44 {
			continue
		}
		ev := s.Event()
		if ev.Offset != 503 || ev.ID != 11 {
			t.Fatalf("event #44 at %d id %d", ev.Offset, ev.ID)
		}
		var got []uint64
		it := ev.Payload().Iter()
		for it.Next() {
			if it.Value().Kind() == ltt.KindString {
				if string(it.Value().Text()) != "c.proc" {
					t.Errorf("name %q", it.Value().Text())
				}
				continue
			}
			got = append(got, it.Value().Uint())
		}
		if len(got) != 3 || got[0] != 4 || got[1] != 5 || got[2] != 6 {
			t.Errorf("event #44 fields %v, want sub 4, data1 5, data2 6", got)
		}
		sub, _ := ev.Field("event_sub_id")
		// core.xml's labels start at value=1, so C semantics give OPEN
		// for 4 and LTTV's positional mapping is one label off.
		if l, _ := sub.Label(false); l != "TRACE_EV_FILE_SYSTEM_OPEN" {
			t.Errorf("label %q", l)
		}
		if l, _ := sub.Label(true); l != "TRACE_EV_FILE_SYSTEM_CLOSE" {
			t.Errorf("positional label %q", l)
		}
		break
	}
}

// TestGoldenV2Rejects: the v2 trailer rule lands on garbage in the v1
// sample, so a v2-only reader must refuse the block.
func TestGoldenV2Rejects(t *testing.T) {
	cfg := sampleConfig
	cfg.Version = ltt.Version2
	r, err := ltt.NewDecoder(cfg, ltt.Core())
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Block(readCPU(t, "0"))
	if !errors.Is(err, ltt.ErrBlockEnd) {
		t.Fatalf("v2 reader on v1 data: %v", err)
	}
	if pe, ok := errors.AsType[*ltt.ParseError](err); !ok || pe.Offset != 1000000-4 {
		t.Errorf("error offset: %v", err)
	}
}

// TestNaiveWalk checks the type-driven scanner against a deliberately
// naive walker that only knows docs/ltt.md §7's payload sizes (strings for ids 0
// and 11): both must visit the same offsets and end on block_end.
func TestNaiveWalk(t *testing.T) {
	sizes := map[uint16]int{1: 5, 2: 0, 3: 6, 4: 0, 5: 2, 6: 0, 7: 12, 8: 0, 9: 5, 10: 9, 12: 10, 13: 5,
		14: 9, 15: 9, 16: 5, 17: 20, 18: 20, 19: 16, 20: 8, 21: 8}
	r := sampleReader(t)
	for _, g := range goldens {
		data := readCPU(t, g.cpu)
		var naive []int
		for off := 0; off <= g.endOffset; {
			naive = append(naive, off)
			id := uint16(data[off]) | uint16(data[off+1])<<8
			p := off + 6
			switch id {
			case 11:
				p += 9 + bytes.IndexByte(data[p+9:], 0) + 1
			case 0:
				p += bytes.IndexByte(data[p:], 0) + 1 + 8
			default:
				n, ok := sizes[id]
				if !ok {
					t.Fatalf("cpu/%s: naive walk meets id %d at %d", g.cpu, id, off)
				}
				p += n
			}
			off = p
		}
		blk, err := r.Block(data)
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		for ev, err := range blk.Events() {
			if err != nil {
				t.Fatal(err)
			}
			if i >= len(naive) || naive[i] != ev.Offset {
				t.Fatalf("cpu/%s: event %d at %d, naive walk says otherwise", g.cpu, i, ev.Offset)
			}
			i++
		}
		if i != len(naive) || naive[len(naive)-1] != g.endOffset {
			t.Errorf("cpu/%s: %d events, naive %d", g.cpu, i, len(naive))
		}
	}
}
