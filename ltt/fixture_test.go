package ltt_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/perfwire/perfwire/ltt"
)

// workedExample builds docs/ltt.md §4's example by hand: block_size 96, one
// schedchange (id 7, 12-byte payload), in either trailer rule and byte
// order.
func workedExample(v ltt.Version, big bool) []byte {
	return buildExample(v, big, 1000, 1500, 2000, 0, 1000)
}

// buildExample lays out the example with block records at cycles cs and
// ce (nanoseconds nsS and nsE of second 10) and schedchange at c.
func buildExample(v ltt.Version, big bool, cs, c, ce uint64, nsS, nsE uint32) []byte {
	var o binary.AppendByteOrder = binary.LittleEndian
	if big {
		o = binary.BigEndian
	}
	rec := func(b []byte, id uint16, tsc uint32, sec, ns uint32, cyc uint64) []byte {
		b = o.AppendUint16(b, id)
		b = o.AppendUint32(b, tsc)
		b = o.AppendUint32(b, sec)
		b = o.AppendUint32(b, ns)
		b = o.AppendUint64(b, cyc)
		return o.AppendUint32(b, 0) // block id
	}
	b := rec(nil, 17, uint32(cs), 10, nsS, cs)
	b = o.AppendUint16(b, 7)
	b = o.AppendUint32(b, uint32(c))
	b = o.AppendUint32(b, 11) // out
	b = o.AppendUint32(b, 22) // in
	b = o.AppendUint32(b, 1)  // out_state
	b = rec(b, 18, uint32(ce), 10, nsE, ce)
	b = append(b, make([]byte, 22)...)
	if v == ltt.Version1 {
		return o.AppendUint32(b, 52)
	}
	return o.AppendUint32(b, 22)
}

func exampleReader(t testing.TB, v ltt.Version, big bool) *ltt.Decoder {
	r, err := ltt.NewDecoder(ltt.Options{BigEndian: big, Arch: ltt.ILP32, BlockSize: 96, Version: v}, ltt.Core())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestWorkedExample(t *testing.T) {
	for _, big := range []bool{false, true} {
		for _, v := range []ltt.Version{ltt.Version1, ltt.Version2} {
			b := workedExample(v, big)
			if len(b) != 96 {
				t.Fatalf("fixture is %d bytes", len(b))
			}
			blk, err := exampleReader(t, ltt.VersionAuto, big).Block(b)
			if err != nil {
				t.Fatalf("%v big=%v: %v", v, big, err)
			}
			if blk.Version != v || blk.EndOffset != 44 {
				t.Errorf("%v big=%v: detected %v, block_end at %d", v, big, blk.Version, blk.EndOffset)
			}
			var ids []uint16
			var times []int64
			for ev, err := range blk.Events() {
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, ev.ID)
				times = append(times, ev.Time)
				if ev.ID == 7 {
					out, _ := ev.Field("out")
					in, _ := ev.Field("in")
					if out.Uint() != 11 || in.Uint() != 22 || ev.Cycles != 1500 {
						t.Errorf("schedchange %d %d cycles %d", out.Uint(), in.Uint(), ev.Cycles)
					}
				}
			}
			// Halfway between the block records in cycles is halfway in
			// time: 10 s + 500 ns.
			if len(ids) != 3 || ids[1] != 7 || times[1] != 10e9+500 {
				t.Errorf("%v big=%v: ids %v times %v", v, big, ids, times)
			}
		}
	}
}

// TestWriterMatchesWorkedExample: for one schedchange the writer
// produces the worked example's v2 block byte for byte (its block records
// sit at the only event's cycles).
func TestWriterMatchesWorkedExample(t *testing.T) {
	for _, big := range []bool{false, true} {
		r := exampleReader(t, ltt.Version2, big)
		l := r.Layout()
		w := ltt.NewWriter(r, func(c uint64) (uint32, uint32) { return 10, uint32(c) })
		var p []byte
		for _, v := range []uint64{11, 22, 1} {
			p = l.AppendUint(p, ltt.Size4, v)
		}
		if err := w.Event(7, 1500, p); err != nil {
			t.Fatal(err)
		}
		got := finish(t, w)
		want := buildExample(ltt.Version2, big, 1500, 1500, 1500, 1500, 1500)
		if !bytes.Equal(got, want) {
			t.Fatalf("big=%v:\n got %x\nwant %x", big, got, want)
		}
	}
}

// TestBadInput is docs/ltt.md §16–17's checklist: every malformed block fails
// with a specific kind and offset, never a panic.
func TestBadInput(t *testing.T) {
	le := binary.LittleEndian
	mut := func(v ltt.Version, f func(b []byte)) []byte {
		b := workedExample(v, false)
		f(b)
		return b
	}
	cases := []struct {
		name    string
		v       ltt.Version
		block   []byte
		blkErr  error // from Reader.Block
		walkErr error // from the scanner
		off     int64
	}{
		{"short block", ltt.VersionAuto, workedExample(ltt.Version2, false)[:95], ltt.ErrBlockSize, nil, 95},
		{"no block_start", ltt.VersionAuto, mut(ltt.Version2, func(b []byte) { b[0] = 3 }), ltt.ErrBlockStart, nil, 0},
		{"trailer past block", ltt.VersionAuto, mut(ltt.Version2, func(b []byte) { le.PutUint32(b[92:], 0xffffffff) }), ltt.ErrBlockEnd, nil, 92},
		{"trailer into block_start", ltt.VersionAuto, mut(ltt.Version1, func(b []byte) { le.PutUint32(b[92:], 90) }), ltt.ErrBlockEnd, nil, 92},
		{"trailer zero", ltt.VersionAuto, mut(ltt.Version1, func(b []byte) { le.PutUint32(b[92:], 0) }), ltt.ErrBlockEnd, nil, 92},
		{"block_end id wrong", ltt.VersionAuto, mut(ltt.Version2, func(b []byte) { b[44] = 19 }), ltt.ErrBlockEnd, nil, 92},
		{"block id mismatch", ltt.VersionAuto, mut(ltt.Version2, func(b []byte) { b[44+22] = 1 }), ltt.ErrBlockEnd, nil, 92},
		{"v1 data, v2 forced", ltt.Version2, workedExample(ltt.Version1, false), ltt.ErrBlockEnd, nil, 92},
		{"v2 data, v1 forced", ltt.Version1, workedExample(ltt.Version2, false), ltt.ErrBlockEnd, nil, 92},
		{"unknown id", ltt.VersionAuto, mut(ltt.Version2, func(b []byte) { b[26] = 99 }), nil, ltt.ErrUnknownEvent, 26},
		{"header runs into block_end", ltt.VersionAuto, mut(ltt.Version2, func(b []byte) { b[26] = 10 }), nil, ltt.ErrBlockEnd, 41},
		{"payload runs into block_end", ltt.VersionAuto, mut(ltt.Version2, func(b []byte) { b[26], b[32] = 2, 7 }), nil, ltt.ErrTruncated, 38},
		{"walk steps over block_end", ltt.VersionAuto, mut(ltt.Version2, func(b []byte) { b[26], b[32] = 2, 1 }), nil, ltt.ErrBlockEnd, 43},
		{"string without NUL", ltt.VersionAuto, mut(ltt.Version2, func(b []byte) {
			b[26] = 11 // file_system: e8, u32, u32, string from offset 41
			for i := 41; i < 44; i++ {
				b[i] = 'x'
			}
		}), nil, ltt.ErrString, 32},
		{"block_end inside the walk", ltt.VersionAuto, mut(ltt.Version2, func(b []byte) { b[26] = 18 }), nil, ltt.ErrBlockEnd, 26},
		{"block_start inside the walk", ltt.VersionAuto, mut(ltt.Version2, func(b []byte) { b[26] = 17 }), nil, ltt.ErrBlockEnd, 26},
	}
	for _, c := range cases {
		r := exampleReader(t, c.v, false)
		blk, err := r.Block(c.block)
		if c.blkErr != nil {
			checkErr(t, c.name, err, c.blkErr, c.off)
			continue
		}
		if err != nil {
			t.Errorf("%s: block: %v", c.name, err)
			continue
		}
		s := blk.Scanner()
		for s.Next() {
		}
		checkErr(t, c.name, s.Err(), c.walkErr, c.off)
	}
}

func checkErr(t *testing.T, name string, err, kind error, off int64) {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Errorf("%s: error %v, want %v", name, err, kind)
		return
	}
	pe, ok := errors.AsType[*ltt.ParseError](err)
	if !ok || pe.Offset != off {
		t.Errorf("%s: %v: want offset %d", name, err, off)
	}
}

// TestTracefileErrorOffsets: errors from a tracefile's second block carry
// file offsets.
func TestTracefileErrorOffsets(t *testing.T) {
	good := workedExample(ltt.Version2, false)
	bad := workedExample(ltt.Version2, false)
	bad[26] = 99 // unknown id
	file := append(append([]byte{}, good...), bad...)
	r := exampleReader(t, ltt.VersionAuto, false)
	tf := r.Tracefile(bytes.NewReader(file), int64(len(file)))
	blk, err := tf.Block(1)
	if err != nil || blk.FileOffset() != 96 {
		t.Fatalf("block 1: %v at %d", err, blk.FileOffset())
	}
	s := blk.Scanner()
	for s.Next() {
	}
	checkErr(t, "unknown id in block 1", s.Err(), ltt.ErrUnknownEvent, 96+26)
	file[96] = 0 // no block_start in block 1
	_, err = tf.Block(1)
	checkErr(t, "no block_start in block 1", err, ltt.ErrBlockStart, 96)
}
