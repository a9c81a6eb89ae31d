package fuzz

import (
	"bytes"
	"os"
	"strconv"
	"testing"
	"testing/fstest"

	"github.com/perfwire/perfwire/ltt"
	"github.com/perfwire/perfwire/ltt/tracedir"
)

// lttBlockSizes are the block sizes the tracefile target picks among;
// the seed was written with 2048-byte blocks.
var lttBlockSizes = [...]int{2048, 1024, 4096, 512}

// lttTrace builds a one-CPU trace directory around cpu: the sample's
// system.xml (patched for byte order and block size) and core.xml.
func lttTrace(tb testing.TB, cpu []byte, big bool, blockSize int) fstest.MapFS {
	tb.Helper()
	sys, err := os.ReadFile("testdata/ltt/system.xml")
	if err != nil {
		tb.Fatal(err)
	}
	core, err := os.ReadFile("testdata/ltt/core.xml")
	if err != nil {
		tb.Fatal(err)
	}
	sys = bytes.Replace(sys, []byte(`ltt_block_size="1000000"`), []byte(`ltt_block_size="`+strconv.Itoa(blockSize)+`"`), 1)
	if big {
		sys = bytes.Replace(sys, []byte("LITTLE_ENDIAN"), []byte("BIG_ENDIAN"), 1)
	}
	return fstest.MapFS{
		"info/system.xml":    {Data: sys},
		"eventdefs/core.xml": {Data: core},
		"cpu/0":              {Data: cpu},
	}
}

// walkValue reads every member of v, depth first, as a viewer would.
func walkValue(t *testing.T, v ltt.Value, depth int) {
	if depth > 64 {
		t.Fatalf("values nested %d deep", depth)
	}
	switch v.Kind() {
	case ltt.KindString:
		_ = v.Text()
	case ltt.KindInt:
		_ = v.Int()
	case ltt.KindUint:
		_ = v.Uint()
	case ltt.KindEnum:
		_, _ = v.Label(false)
	case ltt.KindFloat:
		_ = v.Float()
	}
	it := v.Iter()
	for it.Next() {
		_ = it.Name()
		walkValue(t, it.Value(), depth+1)
	}
	if err := it.Err(); err != nil {
		t.Fatalf("scanner-sized value fails to iterate: %v", err)
	}
}

// lttEvent is what the two walks of a trace are compared on.
type lttEvent struct {
	id      uint16
	cycles  uint64
	payload string
}

// checkTrace opens fsys as a trace and walks it twice, through the
// time-ordered merge and block by block through the tracefile; with one
// CPU both must see the same events and stop on the same error.
func checkTrace(t *testing.T, fsys fstest.MapFS) int {
	t.Helper()
	tr, err := tracedir.Open(fsys, tracedir.Options{})
	if err != nil {
		mustBeParseError(t, "tracedir.Open", err)
		return 0
	}
	var merged []lttEvent
	for _, ev := range tr.Merge() {
		if ev == nil {
			break
		}
		walkValue(t, ev.Payload(), 0)
		merged = append(merged, lttEvent{ev.ID, ev.Cycles, string(ev.Payload().Bytes())})
	}
	mergeErr := tr.MergeErr()
	if mergeErr != nil {
		mustBeParseError(t, "Merge", mergeErr)
	}

	var direct []lttEvent
	var directErr error
blocks:
	for blk, err := range tr.CPUs[0].Blocks() {
		if err != nil {
			directErr = err
			break
		}
		s := blk.Scanner()
		for s.Next() {
			ev := s.Event()
			direct = append(direct, lttEvent{ev.ID, ev.Cycles, string(ev.Payload().Bytes())})
		}
		if err := s.Err(); err != nil {
			directErr = err
			break blocks
		}
	}
	if (mergeErr == nil) != (directErr == nil) {
		t.Fatalf("merge ends with %v, block walk with %v", mergeErr, directErr)
	}
	if len(merged) != len(direct) {
		t.Fatalf("merge yields %d events, block walk %d", len(merged), len(direct))
	}
	for i := range merged {
		if merged[i] != direct[i] {
			t.Fatalf("event %d: merge %+v, block walk %+v", i, merged[i], direct[i])
		}
	}
	return len(merged)
}

// TestLTTSeed: the re-framed sample opens and walks completely.
func TestLTTSeed(t *testing.T) {
	cpu, err := os.ReadFile("testdata/ltt/cpu0-2k-v2.bin")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tracedir.Open(lttTrace(t, cpu, false, 2048), tracedir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := tr.CPUs[0].NumBlocks(); n != len(cpu)/2048 {
		t.Fatalf("%d blocks", n)
	}
	if n := checkTrace(t, lttTrace(t, cpu, false, 2048)); n < 150 {
		t.Fatalf("only %d events", n)
	}
	// The wrong byte order must fail cleanly, not walk garbage.
	if _, err := tracedir.Open(lttTrace(t, cpu, true, 2048), tracedir.Options{}); err == nil {
		n := checkTrace(t, lttTrace(t, cpu, true, 2048))
		t.Logf("big-endian reading of a little-endian file: %d events", n)
	}
}

// FuzzLTTTracefile feeds a whole cpu tracefile to the trace directory
// reader: the first byte picks the byte order and block size, the rest
// is the file. Invariants: no panic, typed errors, every payload value
// readable, and the merged walk equals the block-by-block walk.
func FuzzLTTTracefile(f *testing.F) {
	cpu, err := os.ReadFile("testdata/ltt/cpu0-2k-v2.bin")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(append([]byte{0}, cpu...))
	f.Add(append([]byte{0}, cpu[:2048]...))
	f.Add(append([]byte{1 << 1}, cpu[:2048]...))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 1 || len(data) > 1<<16 {
			return
		}
		big := data[0]&1 == 1
		bs := lttBlockSizes[int(data[0]>>1)%len(lttBlockSizes)]
		checkTrace(t, lttTrace(t, data[1:], big, bs))
	})
}
