//go:build conformance

package dlt

import (
	"bytes"
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
			h.BigEndian = big
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
