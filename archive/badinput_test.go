package archive

import (
	"encoding/binary"
	"errors"
	"runtime"
	"testing"
)

// recordAt returns the offset of the n'th record after the label of a
// framed file (meta or volume).
func recordAt(b []byte, n int) int {
	off := int(binary.BigEndian.Uint32(b)) // the label's length
	for range n {
		off += int(binary.BigEndian.Uint32(b[off:]))
	}
	return off
}

func put32(b []byte, off int, v uint32) { binary.BigEndian.PutUint32(b[off:], v) }

// The checklist of docs/pcp-archive.md §9: each damage gives a
// *ParseError of the right kind, naming the file and the offset, and a
// damaged volume yields the records before the damage.
func TestBadInput(t *testing.T) {
	good := load(t, "m3")
	v2 := load(t, "m2")
	lastMeta := recordAt(good.meta, 0)
	for recordAt(good.meta, 1) > 0 && lastMeta+int(binary.BigEndian.Uint32(good.meta[lastMeta:])) < len(good.meta) {
		lastMeta += int(binary.BigEndian.Uint32(good.meta[lastMeta:]))
	}
	rec2 := recordAt(good.vols[0], 2)
	rec2len := int(binary.BigEndian.Uint32(good.vols[0][rec2:]))
	for _, tc := range []struct {
		name    string
		base    files
		damage  func(f *files)
		kind    error
		file    string
		offset  int64
		records int // records the scanner returns before the error (open errors: -1)
	}{
		{"meta magic", good, func(f *files) { put32(f.meta, 4, 0xdeadbeef) }, ErrMagic, "t.meta", 4, -1},
		{"meta version", good, func(f *files) { f.meta[7] = 4 }, ErrVersion, "t.meta", 7, -1},
		{"label length", good, func(f *files) { put32(f.meta, 0, 100) }, ErrLength, "t.meta", 0, -1},
		{"label trailer", good, func(f *files) { put32(f.meta, 804, 1) }, errFrame, "t.meta", 804, -1},
		{"meta cut inside a record", good, func(f *files) { f.meta = f.meta[:len(f.meta)-3] }, ErrTruncated, "t.meta", int64(lastMeta), -1},
		{"meta trailer differs", good, func(f *files) {
			r := recordAt(f.meta, 0)
			put32(f.meta, r+int(binary.BigEndian.Uint32(f.meta[r:]))-4, 7)
		}, errFrame, "t.meta", int64(recordAt(good.meta, 1) - 4), -1},
		{"meta record type", good, func(f *files) { put32(f.meta, recordAt(f.meta, 0)+4, 99) }, ErrType, "t.meta", int64(recordAt(good.meta, 0) + 4), -1},
		{"desc numnames huge", good, func(f *files) { put32(f.meta, recordAt(f.meta, 0)+28, 0x7fffffff) }, ErrCount, "t.meta", int64(recordAt(good.meta, 0) + 28), -1},
		{"meta record length tiny", good, func(f *files) { put32(f.meta, recordAt(f.meta, 1), 4) }, ErrLength, "t.meta", int64(recordAt(good.meta, 1)), -1},
		{"volume of another archive", good, func(f *files) { put32(f.vols[1], 8, 1) }, errLabelMismatch, "t.1", 0, -1},
		{"volume trailer differs", good, func(f *files) { put32(f.vols[0], rec2+rec2len-4, 1) }, errFrame, "t.0", int64(rec2 + rec2len - 4), 2},
		{"volume cut inside a record", good, func(f *files) { f.vols[0] = f.vols[0][:rec2+20] }, ErrTruncated, "t.0", int64(rec2), 2},
		{"record length huge", good, func(f *files) { put32(f.vols[0], rec2, 0x7fffffff) }, ErrLimit, "t.0", int64(rec2), 2},
		{"record length tiny", good, func(f *files) { put32(f.vols[0], rec2, 8) }, ErrLength, "t.0", int64(rec2), 2},
		{"numpmid huge", good, func(f *files) { put32(f.vols[0], rec2+16, 0x7ffffff0) }, ErrCount, "t.0", int64(rec2 + 16), 2},
		{"v2 numpmid negative", v2, func(f *files) { put32(f.vols[0], recordAt(f.vols[0], 1)+12, 0xffffffff) }, ErrCount, "t.0", int64(recordAt(v2.vols[0], 1) + 12), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.base.clone()
			tc.damage(&f)
			a, err := f.open(Options{})
			n := -1
			if err == nil {
				n, err = scanAll(a)
			}
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, tc.kind) {
				t.Fatalf("error %v, want a *ParseError of kind %v", err, tc.kind)
			}
			if pe.File != tc.file || pe.Offset != tc.offset {
				t.Errorf("%v: file %q offset %d, want %q %d", err, pe.File, pe.Offset, tc.file, tc.offset)
			}
			if n != tc.records {
				t.Errorf("%d records before the error, want %d", n, tc.records)
			}
		})
	}
}

// A record claiming 2 GiB costs nothing before it is refused.
func TestHugeRecordAllocatesNothing(t *testing.T) {
	f := load(t, "m3").clone()
	put32(f.vols[0], recordAt(f.vols[0], 0), 0x7fffffff)
	a, err := f.open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := scanAll(a); !errors.Is(err, ErrLimit) {
		t.Fatalf("err %v, want ErrLimit", err)
	}
	runtime.ReadMemStats(&after)
	if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
		t.Errorf("allocated %d bytes for a refused record", d)
	}
}

// Limits are configurable: a small MaxRecordLen refuses real records,
// MaxInstances the instance domains.
func TestLimits(t *testing.T) {
	f := load(t, "m3")
	a, err := f.open(Options{MaxRecordLen: 64})
	if err == nil {
		_, err = scanAll(a)
	}
	var pe *ParseError
	if !errors.As(err, &pe) || !errors.Is(err, ErrLimit) || pe.Limit != 64 {
		t.Errorf("MaxRecordLen 64: %v", err)
	}
	if _, err := f.open(Options{MaxInstances: 10}); !errors.Is(err, ErrLimit) {
		t.Errorf("MaxInstances 10: %v", err)
	}
}

// The index: a truncated entry and entries pointing past their files are
// reported with the index file and the entry's offset; whole entries are
// still returned.
func TestIndexDamage(t *testing.T) {
	good := load(t, "m3")
	a, err := good.open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	all, err := a.Index()
	if err != nil || len(all) < 3 {
		t.Fatalf("index: %d entries, %v", len(all), err)
	}
	f := good.clone()
	f.index = f.index[:len(f.index)-5]
	a, _ = f.open(Options{})
	got, err := a.Index()
	if !errors.Is(err, ErrTruncated) || len(got) != len(all)-1 {
		t.Errorf("cut index: %d entries, %v", len(got), err)
	}
	f = good.clone()
	binary.BigEndian.PutUint64(f.index[808+32+24:], 1<<40) // entry 1's data offset
	a, _ = f.open(Options{})
	got, err = a.Index()
	var pe *ParseError
	if !errors.As(err, &pe) || !errors.Is(err, ErrRange) || pe.File != "t.index" || pe.Offset != 808+32 || len(got) != len(all) {
		t.Errorf("index past its volume: %d entries, %v", len(got), err)
	}
}
