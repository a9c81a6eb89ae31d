//go:build conformance

package dlt

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// dltConvert runs `TZ=UTC dlt-convert -a` on data and returns its lines.
func dltConvert(t *testing.T, data []byte) [][]byte {
	t.Helper()
	path, err := exec.LookPath("dlt-convert")
	if err != nil {
		t.Fatalf("dlt-convert (COVESA DLT 2.18.8) is required: %v", err)
	}
	file := filepath.Join(t.TempDir(), "in.dlt")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, "-a", file)
	cmd.Env = append(os.Environ(), "TZ=UTC")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("dlt-convert: %v", err)
	}
	return bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n"))
}

// compareWithTool renders every message of data as dlt-convert -a would
// and compares line by line with the real tool.
func compareWithTool(t *testing.T, data []byte) {
	t.Helper()
	lines := dltConvert(t, data)
	ms := scanAll(t, data, Options{NoResync: true})
	if len(ms) != len(lines) {
		t.Fatalf("%d messages, dlt-convert printed %d lines", len(ms), len(lines))
	}
	var line []byte
	for i, m := range ms {
		line = appendOracleLine(t, line[:0], i, m)
		if !bytes.Equal(line, lines[i]) {
			t.Errorf("message %d:\n ours %q\n tool %q", i, line, lines[i])
		}
	}
}

// conformanceArgs lists arguments whose text dlt-convert 2.18.8 prints
// in full (see Arg.AppendText for the cases where it stops printing:
// BIN coding from 32 bits, HEX on 128 bits).
func conformanceArgs(big bool) [][]ArgSpec {
	var msgs [][]ArgSpec
	msgs = append(msgs, []ArgSpec{
		{Kind: KindBool, Bool: true}, {Kind: KindBool}, {Kind: KindBool, VarInfo: true, Name: "flag", Bool: true},
	})
	for _, bits := range []int{8, 16, 32, 64} {
		m := []ArgSpec{
			{Kind: KindSigned, Bits: bits, Uint: ^uint64(4)},
			{Kind: KindSigned, Bits: bits, Uint: 1<<(bits-1) - 1},
			{Kind: KindSigned, Bits: bits, Uint: ^uint64(0) << (bits - 1)},
			{Kind: KindUnsigned, Bits: bits, Uint: ^uint64(0) >> (64 - bits)},
			{Kind: KindUnsigned, Bits: bits, Uint: 42, VarInfo: true, Name: "n", Unit: "ms"},
			{Kind: KindSigned, Bits: bits, Uint: 42, FixedPoint: true, Quantization: 0.5, FixedOffset: -3},
			{Kind: KindUnsigned, Bits: bits, Uint: 7, VarInfo: true, Name: "v", Unit: "u", FixedPoint: true, Quantization: 2, FixedOffset: 1},
		}
		m = append(m, ArgSpec{Kind: KindUnsigned, Bits: bits, Uint: 0x1234567890abcdef, Coding: CodingHex})
		if bits <= 16 {
			m = append(m, ArgSpec{Kind: KindUnsigned, Bits: bits, Uint: 0xa5c3, Coding: CodingBin})
		}
		msgs = append(msgs, m)
	}
	msgs = append(msgs, []ArgSpec{
		{Kind: KindSigned, Bits: 128, Uint: ^uint64(4), UintHi: ^uint64(0)},
		{Kind: KindUnsigned, Bits: 128, Uint: 0xfedcba9876543210, UintHi: 0x0123456789abcdef},
	})
	for _, bits := range []int{16, 32, 64, 128} {
		msgs = append(msgs, []ArgSpec{
			{Kind: KindFloat, Bits: bits, Float: 1.5}, {Kind: KindFloat, Bits: bits, Float: -123456.789},
			{Kind: KindFloat, Bits: bits, Float: 1e-7}, {Kind: KindFloat, Bits: bits, Float: 1e20},
			{Kind: KindFloat, Bits: bits, Float: 0.1}, {Kind: KindFloat, Bits: bits, Float: 100000},
			{Kind: KindFloat, Bits: bits, Float: 1234567}, {Kind: KindFloat, Bits: bits, Float: 3, VarInfo: true, Name: "x", Unit: "m"},
			{Kind: KindFloat, Bits: bits, Float: math.Inf(1)}, {Kind: KindFloat, Bits: bits, Float: math.Inf(-1)},
			{Kind: KindFloat, Bits: bits, Float: math.NaN()}, {Kind: KindFloat, Bits: bits, Float: math.Copysign(math.NaN(), -1)},
			{Kind: KindFloat, Bits: bits, Float: math.Copysign(0, -1)}, {Kind: KindFloat, Bits: bits, Float: 123456},
		})
	}
	msgs = append(msgs, []ArgSpec{
		{Kind: KindString, Data: []byte("hello world")},
		{Kind: KindString, Coding: CodingUTF8, Data: []byte("ünïcødé-日本語-🚀")},
		{Kind: KindString, Data: []byte("ctl\tTAB\nNEWLINE\x01SOH\x7fDEL\rCR")},
		{Kind: KindString, Data: []byte("latin1-\xe9-\xff\xfe-bytes")},
		{Kind: KindString, VarInfo: true, Name: "nm", Data: []byte("v")},
		{Kind: KindString},
		{Kind: KindString, Data: []byte("15201;0;(odd")},
		{Kind: KindString, Data: []byte("before\x00after")},
	}, []ArgSpec{
		{Kind: KindRaw, Data: []byte{1, 2, 0xab}}, {Kind: KindRaw}, {Kind: KindRaw, VarInfo: true, Name: "r", Data: []byte{0xff, 0}},
		{Kind: KindTrace, Data: []byte("trace")},
	}, nil)
	return msgs
}

// TestConformanceDltConvertEncoder writes messages of every argument type
// with our encoder, in both byte orders and every framing-relevant header
// shape, and checks that dlt-convert -a prints what our decoder renders.
func TestConformanceDltConvertEncoder(t *testing.T) {
	var data []byte
	for _, big := range []bool{false, true} {
		for i, args := range conformanceArgs(big) {
			data = AppendStorageHeader(data, StorageHeader{Seconds: 1795315932 + uint32(i), Microseconds: int32(i * 1001), ECU: MakeID("RECV")})
			h := LogHeader(MakeID("ECU1"), MakeID("APP"), MakeID("C"), uint8(i%6+1), 4242, uint32(i*100000))
			h.Order = orderOf(big)
			h.Counter = uint8(i * 37)
			switch i % 4 { // vary the optional header fields
			case 1:
				h.WithECU = false // ECU from the storage header
			case 2:
				h.WithSessionID = false
			case 3:
				h.WithTimestamp = false
			}
			b := NewBuilder(data, h)
			for _, a := range args {
				b.Arg(a)
			}
			var err error
			if data, err = b.Finish(); err != nil {
				t.Fatal(err)
			}
		}
	}
	compareWithTool(t, data)
}

// TestConformanceDltConvertBigEndianTwins re-encodes every verbose message
// of the captures big-endian and checks dlt-convert prints the twins as
// our decoder does (and hence as the original oracle, apart from the
// dropped control messages).
func TestConformanceDltConvertBigEndianTwins(t *testing.T) {
	for _, c := range captures {
		t.Run(c.name, func(t *testing.T) {
			var twins []byte
			for _, m := range scanAll(t, readCapture(t, c.name), Options{}) {
				if m.Verbose() {
					twins = reencode(t, twins, m, true)
				}
			}
			compareWithTool(t, twins)
		})
	}
}

// TestConformanceDltConvertNonVerbose writes control and other
// non-verbose messages of every subtype, service id range, status and
// payload length, plus header shapes without extended header, and
// checks dlt-convert -a prints what Message.AppendText renders.
func TestConformanceDltConvertNonVerbose(t *testing.T) {
	var data []byte
	add := func(h Header, p []byte) {
		data = AppendStorageHeader(data, StorageHeader{Seconds: 1795315932 + uint32(len(data)), Microseconds: int32(len(data)), ECU: MakeID("ECU1")})
		var err error
		if data, err = AppendMessage(data, h, 1, p); err != nil {
			t.Fatal(err)
		}
	}
	u32 := func(v uint32, big bool) []byte {
		if big {
			return []byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}
		}
		return []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)}
	}
	for _, big := range []bool{false, true} {
		for _, sub := range []uint8{0, 1, 2, 3, 4, 15} {
			h := Header{Extended: true, Type: TypeControl, Subtype: sub, AppID: MakeID("DA1"), ContextID: MakeID("DC1"), Order: orderOf(big)}
			for _, id := range []uint32{0, 1, 3, 20, 21, 0xF01, 0xF02, 1234567} {
				add(h, u32(id, big))
				add(h, append(u32(id, big), 5))
				add(h, append(u32(id, big), 3, 1, 2))
			}
			add(h, nil)
			add(h, []byte{1, 2, 3})
		}
		for st := range 10 {
			add(Header{Extended: true, Type: TypeControl, Subtype: ControlResponse, Order: orderOf(big)}, append(u32(1, big), byte(st), 0xab))
		}
		add(Header{Extended: true, Type: TypeControl, Subtype: ControlResponse, Order: orderOf(big)}, append(u32(1, big), 200))
		for _, mt := range []MessageType{TypeLog, TypeAppTrace, TypeNwTrace, 5, 7} {
			h := Header{Extended: true, Type: mt, Subtype: 3, AppID: MakeID("APP1"), ContextID: MakeID("C"), Order: orderOf(big)}
			add(h, append(u32(77, big), 9, 8))
			add(h, u32(0xFFFFFFFF, big))
			add(h, []byte{1, 2})
		}
		add(Header{Order: orderOf(big)}, append(u32(77, big), 9, 8))
		add(Header{Order: orderOf(big), WithTimestamp: true, Timestamp: 5, WithSessionID: true, SessionID: 9}, nil)
		add(Header{Order: orderOf(big), WithECU: true, ECU: MakeID("E2"), Counter: 255}, []byte{1})
		add(Header{Extended: true, Verbose: true, Type: TypeLog, Subtype: 9, Order: orderOf(big)}, nil)
	}
	compareWithTool(t, data)
}

// TestConformanceDltConvertBadArgs: verbose messages whose arguments stop
// decoding part way (a length past the end, a value cut short, NOAR
// larger than the arguments, bytes after them), and a reserved type-info
// bit that both ignore. Arrays are not compared: the tool ignores the
// ARAY bit of an integer, prints one element and then fails, where this
// package rejects the argument.
func TestConformanceDltConvertBadArgs(t *testing.T) {
	str := func(s string) []byte { b, _ := AppendStringArg(nil, s, nil); return b }
	cat := func(ps ...[]byte) []byte { return bytes.Join(ps, nil) }
	var data []byte
	for _, tc := range []struct {
		noar int
		p    []byte
	}{
		{3, cat(str("a"), []byte{0x00, 0x02, 0x04, 0, 2, 0, 'x', 0}, str("b"))},
		{2, cat(str("a"), []byte{0x00, 0x02, 0, 0, 9, 0, 'x', 0})},
		{3, cat(str("a"), str("b"))},
		{1, cat(str("a"), str("b"))},
		{2, cat(str("a"), []byte{0x43, 0, 0, 0, 1})},
	} {
		data = AppendStorageHeader(data, StorageHeader{Seconds: 1795315932, ECU: MakeID("ECU1")})
		var err error
		h := LogHeader(MakeID("ECU1"), MakeID("APP"), MakeID("CTX"), LevelInfo, 1, 2)
		if data, err = AppendMessage(data, h, tc.noar, tc.p); err != nil {
			t.Fatal(err)
		}
	}
	compareWithTool(t, data)
}
