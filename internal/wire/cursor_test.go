package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"testing"
)

func TestCursorReads(t *testing.T) {
	b := []byte{0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09}
	c := NewCursor(b)
	if v, ok := c.U8(); !ok || v != 1 {
		t.Fatalf("U8 = %v %v", v, ok)
	}
	if v, ok := c.U16BE(); !ok || v != 0x0203 {
		t.Fatalf("U16BE = %#x %v", v, ok)
	}
	if v, ok := c.U16LE(); !ok || v != 0x0504 {
		t.Fatalf("U16LE = %#x %v", v, ok)
	}
	if v, ok := c.U32(true); !ok || v != 0x06070809 {
		t.Fatalf("U32(BE) = %#x %v", v, ok)
	}
	if !c.Empty() || c.Offset() != 9 || c.Len() != 0 {
		t.Fatalf("after reading all: empty=%v off=%d len=%d", c.Empty(), c.Offset(), c.Len())
	}
	if _, ok := c.U8(); ok {
		t.Fatal("U8 past the end succeeded")
	}

	c = NewCursor(b)
	if v, ok := c.U64LE(); !ok || v != binary.LittleEndian.Uint64(b) {
		t.Fatalf("U64LE = %#x %v", v, ok)
	}
	c = NewCursor(b)
	if v, ok := c.U64(true); !ok || v != binary.BigEndian.Uint64(b) {
		t.Fatalf("U64(BE) = %#x %v", v, ok)
	}
	c = NewCursor(b)
	if v, ok := c.U32LE(); !ok || v != 0x04030201 {
		t.Fatalf("U32LE = %#x %v", v, ok)
	}
	if v, ok := c.U16(false); !ok || v != 0x0605 {
		t.Fatalf("U16(LE) = %#x %v", v, ok)
	}
}

// Every read that does not fit must fail without moving the cursor.
func TestCursorShortReadsDoNotAdvance(t *testing.T) {
	b := []byte{1, 2, 3}
	reads := map[string]func(c *Cursor) bool{
		"U32BE": func(c *Cursor) bool { _, ok := c.U32BE(); return ok },
		"U32LE": func(c *Cursor) bool { _, ok := c.U32LE(); return ok },
		"U64BE": func(c *Cursor) bool { _, ok := c.U64BE(); return ok },
		"U64LE": func(c *Cursor) bool { _, ok := c.U64LE(); return ok },
		"Bytes": func(c *Cursor) bool { _, ok := c.Bytes(4); return ok },
		"Skip":  func(c *Cursor) bool { return c.Skip(4) },
		"Huge":  func(c *Cursor) bool { return c.Skip(math.MaxUint64) },
		"Wrap":  func(c *Cursor) bool { return c.Skip(1<<64 - 1) },
		"Neg":   func(c *Cursor) bool { return c.Seek(-1) },
		"Past":  func(c *Cursor) bool { return c.Seek(4) },
	}
	for name, read := range reads {
		c := NewCursor(b)
		c.U8()
		if read(&c) {
			t.Errorf("%s succeeded on %d remaining bytes", name, c.Len())
		}
		if c.Offset() != 1 {
			t.Errorf("%s moved the cursor to %d", name, c.Offset())
		}
	}
	var zero Cursor
	if _, ok := zero.U8(); ok || !zero.Empty() {
		t.Error("the zero Cursor is not empty")
	}
}

func TestCursorBytesIsTrimmedView(t *testing.T) {
	b := []byte("abcdef")
	c := NewCursor(b)
	v, ok := c.Bytes(3)
	if !ok || string(v) != "abc" || cap(v) != 3 {
		t.Fatalf("Bytes(3) = %q cap %d ok %v", v, cap(v), ok)
	}
	_ = append(v, 'X') // must not overwrite "d"
	if string(b) != "abcdef" {
		t.Fatalf("append to a view changed the input: %q", b)
	}
	if string(c.Rest()) != "def" || !c.Seek(1) || c.Len() != 5 {
		t.Fatalf("Rest/Seek wrong: %q %d", c.Rest(), c.Len())
	}
}

func TestAppendHelpers(t *testing.T) {
	var b []byte
	b = AppendU16BE(b, 0x0102)
	b = AppendU16LE(b, 0x0102)
	b = AppendU32BE(b, 0x01020304)
	b = AppendU32LE(b, 0x01020304)
	b = AppendU32(b, 1, true)
	b = AppendU32(b, 1, false)
	want := []byte{1, 2, 2, 1, 1, 2, 3, 4, 4, 3, 2, 1, 0, 0, 0, 1, 1, 0, 0, 0}
	if !bytes.Equal(b, want) {
		t.Fatalf("got % x\nwant % x", b, want)
	}
	b = AppendU64BE(b[:0], 1)
	b = AppendU64LE(b, 1)
	b = AppendU64(b, 2, true)
	b = AppendU64(b, 2, false)
	if binary.BigEndian.Uint64(b) != 1 || binary.LittleEndian.Uint64(b[8:]) != 1 ||
		binary.BigEndian.Uint64(b[16:]) != 2 || binary.LittleEndian.Uint64(b[24:]) != 2 {
		t.Fatalf("64-bit appends wrong: % x", b)
	}
	b = []byte{9}
	b = AppendPad4(append(b, 'x'), 1)
	if !bytes.Equal(b, []byte{9, 'x', 0, 0, 0}) {
		t.Fatalf("AppendPad4 = % x", b)
	}
	PutU32BE(b, 1, 0xa0b0c0d0)
	if !bytes.Equal(b, []byte{9, 0xa0, 0xb0, 0xc0, 0xd0}) {
		t.Fatalf("PutU32BE = % x", b)
	}
	for n, want := range map[int]int{0: 0, 1: 4, 3: 4, 4: 4, 5: 8} {
		if got := Pad4(n); got != want {
			t.Errorf("Pad4(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestErrorIsAndText(t *testing.T) {
	kind := errors.New("x: truncated")
	err := NewError("pduwire", "RESULT.numpmid", 20, kind)
	if !errors.Is(err, kind) {
		t.Fatal("errors.Is does not find the kind")
	}
	pe, ok := errors.AsType[*Error](err)
	if !ok || pe.Offset != 20 {
		t.Fatalf("AsType = %v %v", pe, ok)
	}
	if got, want := err.Error(), "pduwire: RESULT.numpmid: x: truncated at offset 20"; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
}

func TestCursorAllocs(t *testing.T) {
	b := make([]byte, 64)
	if n := testing.AllocsPerRun(100, func() {
		c := NewCursor(b)
		for c.Len() >= 8 {
			c.U32BE()
			c.Bytes(4)
		}
	}); n != 0 {
		t.Fatalf("cursor reads allocate %v times", n)
	}
}

// FuzzCursor reads random inputs with a program taken from the input
// itself and checks the cursor never reads past the end nor panics.
func FuzzCursor(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		c := NewCursor(b)
		for i := 0; !c.Empty() && i < 1000; i++ {
			before := c.Offset()
			op, _ := c.U8()
			var ok bool
			switch op % 6 {
			case 0:
				_, ok = c.U16BE()
			case 1:
				_, ok = c.U32LE()
			case 2:
				_, ok = c.U64BE()
			case 3:
				_, ok = c.Bytes(uint64(op))
			case 4:
				ok = c.Skip(uint64(op) << 56)
			case 5:
				ok = c.Seek(int(op))
			}
			if c.Offset() > len(b) || (c.Offset() < before && op%6 != 5) {
				t.Fatalf("offset %d out of range after op %d (ok=%v)", c.Offset(), op, ok)
			}
		}
	})
}
