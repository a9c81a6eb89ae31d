package dlt

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// newRecord returns a storage-framed verbose log message with the given
// NOAR and payload (which need not agree).
func newRecord(t testing.TB, noar int, payload []byte, big bool) []byte {
	t.Helper()
	b := AppendStorageHeader(nil, StorageHeader{Seconds: 1795315932, Microseconds: 374134, ECU: MakeID("ECU1")})
	h := LogHeader(MakeID("ECU1"), MakeID("PROC"), MakeID("PROC"), LevelInfo, 14698, 11517642)
	h.Order = orderOf(big)
	b, err := AppendMessage(b, h, noar, payload)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wantErr checks err's kind and offset.
func wantErr(t *testing.T, err, kind error, off int) {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("error %v, want kind %v", err, kind)
	}
	pe, ok := errors.AsType[*ParseError](err)
	if !ok {
		t.Fatalf("error %T is not a *ParseError", err)
	}
	if off >= 0 && pe.Offset != int64(off) {
		t.Fatalf("error %v at offset %d, want %d", err, pe.Offset, off)
	}
	// The ParseError names the format once; the kind does not repeat it.
	if msg := err.Error(); !strings.HasPrefix(msg, "dlt: ") || strings.Contains(msg[len("dlt: "):], "dlt:") {
		t.Fatalf("message %q does not name the format exactly once", msg)
	}
}

// A LEN over MaxMessageLen names both numbers.
func TestLimitValue(t *testing.T) {
	good := newRecord(t, 1, dhex(t, "00020000 0400 4e455700"), false)
	n := len(good) - StorageHeaderLen
	_, _, err := ConsumeMessage(good, Options{MaxMessageLen: n - 1})
	pe, ok := errors.AsType[*ParseError](err)
	if !ok || !errors.Is(err, ErrLimit) || !pe.HasValue || !pe.HasLimit || pe.Value != int64(n) || pe.Limit != int64(n-1) {
		t.Fatalf("LEN %d over limit %d: %v", n, n-1, err)
	}
}

// Order reports MSBF as a binary.ByteOrder, for messages and arguments,
// and the encoder takes one.
func TestOrder(t *testing.T) {
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		h := LogHeader(MakeID("E"), MakeID("A"), MakeID("C"), LevelInfo, 1, 2)
		h.Order = order
		b := NewBuilder(nil, h)
		b.Arg(ArgSpec{Kind: KindUnsigned, Bits: 32, Uint: 0x01020304})
		rec, err := b.Finish()
		if err != nil {
			t.Fatal(err)
		}
		m, _, err := ConsumeMessage(rec, Options{Framing: FramingBare})
		if err != nil || m.Order() != order || (m.HeaderType()&HTYPBigEndian != 0) != (order == binary.BigEndian) {
			t.Fatalf("%v: order %v, HTYP %#x, %v", order, m.Order(), m.HeaderType(), err)
		}
		// The u32 value is the last 4 bytes, in the message's order.
		if got := order.Uint32(rec[len(rec)-4:]); got != 0x01020304 {
			t.Errorf("%v: value written as %#x", order, got)
		}
		for a, err := range m.Args() {
			if err != nil || a.Order() != order || a.Uint() != 0x01020304 {
				t.Errorf("%v: argument order %v value %#x, %v", order, a.Order(), a.Uint(), err)
			}
		}
	}
	// nil means little-endian.
	if b, _ := AppendStringArg(nil, "x", nil); binary.LittleEndian.Uint16(b[4:]) != 2 {
		t.Errorf("nil order wrote % x", b)
	}
}

// The record layout used below: storage header 0..15, standard header
// 16..19 (HTYP 16, LEN 18..19), ECU/SEID/TMSP 20..31, extended header
// 32..41, payload from 42.
const payloadAt = 42

// TestBadRecords covers the framing items of the spec's test checklist
// (docs/dlt-framing.md §12) with NoResync, so each must fail with its own kind and offset.
func TestBadRecords(t *testing.T) {
	good := newRecord(t, 1, dhex(t, "00020000 0400 4e455700"), false)
	mut := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	tests := []struct {
		name string
		in   []byte
		opt  Options
		kind error
		off  int
	}{
		{"bad pattern", mut(func(b []byte) []byte { b[0] = 'X'; return b }), Options{}, ErrMagic, 0},
		{"DLT v2 storage header", mut(func(b []byte) []byte { b[3] = 2; return b }), Options{}, ErrVersion, 3},
		{"truncated pattern", []byte("DL"), Options{}, ErrTruncated, 0},
		{"truncated storage header", good[:9], Options{}, ErrTruncated, 0},
		{"truncated standard header", good[:18], Options{}, ErrTruncated, 16},
		{"version 0", mut(func(b []byte) []byte { b[16] &^= 0xE0; return b }), Options{}, ErrVersion, 16},
		{"version 2", mut(func(b []byte) []byte { b[16] = b[16]&^0xE0 | 0x40; return b }), Options{}, ErrVersion, 16},
		{"LEN smaller than header", mut(func(b []byte) []byte { b[19] = 25; return b }), Options{}, ErrLength, 18},
		{"LEN 0", mut(func(b []byte) []byte { b[18], b[19] = 0, 0; return b }), Options{}, ErrLength, 18},
		{"LEN past the end", mut(func(b []byte) []byte { b[19]++; return b }), Options{}, ErrTruncated, 0},
		{"truncated final record", good[:len(good)-1], Options{}, ErrTruncated, 0},
		{"LEN over the limit", good, Options{MaxMessageLen: len(good) - 17}, ErrLimit, 18},
		{"serial pattern missing", good[16:], Options{Framing: FramingSerial}, ErrMagic, 0},
		{"bare LEN past the end", good[16 : len(good)-2], Options{Framing: FramingBare}, ErrTruncated, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ConsumeMessage(tt.in, tt.opt)
			wantErr(t, err, tt.kind, tt.off)
			// The scanner reports the same error, before and after a good
			// record, with the offset shifted accordingly.
			opt := tt.opt
			opt.NoResync = true
			small := newRecord(t, 0, nil, false)
			prefix := small
			switch opt.Framing {
			case FramingSerial:
				prefix = AppendSerialHeader(nil)
				prefix = append(prefix, small[16:]...)
			case FramingBare:
				prefix = small[16:]
			}
			in := append(append([]byte(nil), prefix...), tt.in...)
			s := NewScanner(in, opt)
			if !s.Next() {
				t.Fatalf("first record: %v", s.Err())
			}
			if s.Next() {
				t.Fatal("corrupt record accepted")
			}
			wantErr(t, s.Err(), tt.kind, len(prefix)+tt.off)
		})
	}
}

// TestLenEqualsHeader: an empty payload is a valid message.
func TestLenEqualsHeader(t *testing.T) {
	rec := newRecord(t, 0, nil, false)
	m, n, err := ConsumeMessage(rec, Options{})
	if err != nil || n != len(rec) || len(m.Payload()) != 0 || m.Len() != 26 {
		t.Fatalf("n %d len %d payload %d err %v", n, m.Len(), len(m.Payload()), err)
	}
	for _, err := range m.Args() {
		t.Fatalf("NOAR 0, empty payload: %v", err)
	}
}

// TestBadArgs covers the argument items of the checklist; offsets are
// absolute in the record.
func TestBadArgs(t *testing.T) {
	str := "00020000 0400 4e455700" // "NEW"
	tests := []struct {
		name    string
		noar    int
		payload string
		big     bool
		valid   int // arguments decoded before the error
		kind    error
		off     int
	}{
		{"NOAR larger than arguments", 3, str + str, false, 2, ErrCount, payloadAt + 20},
		{"NOAR 0 with bytes", 0, str, false, 0, ErrTrailing, payloadAt},
		{"bytes after NOAR arguments", 1, str + "00", false, 1, ErrTrailing, payloadAt + 10},
		{"string past the end", 1, "00020000 0500 4e455700", false, 0, ErrTruncated, payloadAt + 6},
		{"string length past the end BE", 1, "00000200 ff00 4e455700", true, 0, ErrTruncated, payloadAt + 6},
		{"string length field cut", 1, "00020000 04", false, 0, ErrTruncated, payloadAt + 4},
		{"type info cut", 1, "0002", false, 0, ErrTruncated, payloadAt},
		{"reserved bit 18 ignored, like dlt-convert", 2, "00020400 0400 4e455700", false, 1, ErrCount, payloadAt + 10},
		{"reserved bit 31 alone", 1, "00000080 0400 4e455700", false, 0, ErrType, payloadAt},
		{"no kind bit", 1, "01000000 00", false, 0, ErrType, payloadAt},
		{"two kind bits", 1, "61000000 00", false, 0, ErrType, payloadAt},
		{"array", 1, "41010000 0100 0100 00", false, 0, ErrType, payloadAt},
		{"struct", 1, "00400000 0000", false, 0, ErrType, payloadAt},
		{"uint TYLE 0", 1, "40000000 00", false, 0, ErrType, payloadAt},
		{"uint TYLE 6", 1, "46000000 00", false, 0, ErrType, payloadAt},
		{"float8", 1, "81000000 00", false, 0, ErrType, payloadAt},
		{"bool TYLE 2", 1, "12000000 0000", false, 0, ErrType, payloadAt},
		{"FIXP on float", 1, "83100000 00000000 00000000 00000000", false, 0, ErrType, payloadAt},
		{"uint32 value cut", 2, str + "43000000 0102", false, 1, ErrTruncated, payloadAt + 14},
		{"uint64 BE value cut", 1, "00000044 01020304", true, 0, ErrTruncated, payloadAt + 4},
		{"VARI name past the end", 1, "43080000 0900 0100 6e00", false, 0, ErrTruncated, payloadAt + 8},
		{"VARI lengths cut", 1, "43080000 02", false, 0, ErrTruncated, payloadAt + 4},
		{"VARI unit past the end", 1, "43080000 0100 0900 00 6d", false, 0, ErrTruncated, payloadAt + 9},
		{"FIXP offset cut", 1, "24100000 0000803f 01020304", false, 0, ErrTruncated, payloadAt + 8},
		{"string VARI name past the end", 1, "000a0000 0100 0500 6e00", false, 0, ErrTruncated, payloadAt + 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := newRecord(t, tt.noar, dhex(t, tt.payload), tt.big)
			m, _, err := ConsumeMessage(rec, Options{})
			if err != nil {
				t.Fatalf("header rejected: %v", err)
			}
			n := 0
			var last error
			for _, err := range m.Args() {
				if err != nil {
					last = err
					break
				}
				n++
			}
			// The scanner form reports the same.
			as := m.ArgScanner()
			for as.Next() {
			}
			if as.Err() == nil || as.Err().Error() != last.Error() || as.Remaining() != tt.noar-tt.valid {
				t.Errorf("ArgScanner: %v, %d remaining", as.Err(), as.Remaining())
			}
			if n != tt.valid {
				t.Errorf("%d valid arguments, want %d", n, tt.valid)
			}
			wantErr(t, last, tt.kind, tt.off)
			// The header stays usable after an argument error.
			if m.AppID() != MakeID("PROC") || m.NumArgs() != tt.noar {
				t.Error("header changed")
			}
		})
	}
}

func TestNonVerbose(t *testing.T) {
	// A capture that is just the CONNECTION_INFO response (kpi-odd #0).
	data := readCapture(t, "kpi-odd")
	s := NewScanner(data, Options{})
	s.Next()
	only := s.Message().Bytes()
	ms := scanAll(t, only, Options{})
	if len(ms) != 1 {
		t.Fatalf("%d messages", len(ms))
	}
	m := ms[0]
	id, ok := m.MessageID()
	if !ok || id != 0xF02 || m.Verbose() || m.Type() != TypeControl || m.Subtype() != ControlResponse ||
		string(m.NonVerboseData()) != "\x00\x02\x00\x00\x00\x00" {
		t.Fatalf("id %#x ok %v verbose %v type %v/%d data %x", id, ok, m.Verbose(), m.Type(), m.Subtype(), m.NonVerboseData())
	}
	if _, ok := m.SessionID(); ok {
		t.Error("HTYP 0x35 has no session id")
	}
	for _, err := range m.Args() {
		wantErr(t, err, ErrNotVerbose, 16+12)
	}
	// Big-endian non-verbose message id (MSBF).
	h := Header{Order: orderOf(true), Extended: true, Type: TypeControl, Subtype: ControlRequest}
	rec, err := AppendMessage(nil, h, 0, dhex(t, "00000f02 01"))
	if err != nil {
		t.Fatal(err)
	}
	mb := scanAll(t, rec, Options{Framing: FramingBare})[0]
	if id, ok := mb.MessageID(); !ok || id != 0xF02 {
		t.Fatalf("BE message id %#x %v", id, ok)
	}
	// No extended header: non-verbose; a payload shorter than an id has none.
	rec, _ = AppendMessage(nil, Header{}, 0, []byte{1, 2})
	mn := scanAll(t, rec, Options{Framing: FramingBare})[0]
	if _, ok := mn.MessageID(); ok || mn.HasExtendedHeader() || mn.Verbose() || mn.NumArgs() != 0 || mn.AppID() != (ID{}) {
		t.Fatal("message without extended header")
	}
}
