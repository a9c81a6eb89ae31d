package render

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfwire/perfwire/dlt"
)

// dltVariety is a DLT file of the shapes dlt_decode prints differently:
// every argument kind, names and units, bytes that are not UTF-8 in ids,
// names and strings, more than 15 arguments, none, non-verbose and
// control messages, no extended header, big-endian payloads, negative and
// large microseconds.
func dltVariety(t *testing.T) []byte {
	var out []byte
	add := func(sh dlt.StorageHeader, h dlt.Header, args ...dlt.ArgSpec) {
		t.Helper()
		m := dlt.NewBuilder(dlt.AppendStorageHeader(out, sh), h)
		for _, a := range args {
			if h.Verbose {
				m.Arg(a)
			} else {
				m.Bytes(a.Data, 1) // a non-verbose payload as it is
			}
		}
		b, err := m.Finish()
		if err != nil {
			t.Fatal(err)
		}
		out = b
	}
	ecu, app, ctx := dlt.MakeID("ECU1"), dlt.MakeID("AP\xff"), dlt.MakeID("C")
	sh := dlt.StorageHeader{Seconds: 1764000000, Microseconds: 123456, ECU: ecu}
	log := dlt.LogHeader(ecu, app, ctx, dlt.LevelWarn, 42, 1234567)
	all := []dlt.ArgSpec{
		{Kind: dlt.KindBool, Bool: true},
		{Kind: dlt.KindSigned, Bits: 32, Uint: uint64(0xFFFFFFFFFFFFFF85), VarInfo: true, Name: "temp", Unit: "°C"},
		{Kind: dlt.KindUnsigned, Bits: 16, Uint: 0xBEEF, Coding: dlt.CodingHex},
		{Kind: dlt.KindUnsigned, Bits: 8, Uint: 0x5A, Coding: dlt.CodingBin},
		{Kind: dlt.KindUnsigned, Bits: 128, Uint: 7, UintHi: 1},
		{Kind: dlt.KindFloat, Bits: 64, Float: 3.14159265, VarInfo: true, Name: "pi"},
		{Kind: dlt.KindFloat, Bits: 16, Float: -2.5},
		{Kind: dlt.KindString, Data: []byte("bad \xc3\x28 utf8\r\n"), VarInfo: true, Name: "n\xfe"},
		{Kind: dlt.KindRaw, Data: []byte{1, 2, 0xfe}},
		{Kind: dlt.KindSigned, Bits: 64, Uint: 5, FixedPoint: true, Quantization: 0.5, FixedOffset: -3},
	}
	add(sh, log, all...)
	var many []dlt.ArgSpec
	for i := range 17 {
		many = append(many, dlt.ArgSpec{Kind: dlt.KindUnsigned, Bits: 32, Uint: uint64(i)})
	}
	add(dlt.StorageHeader{Seconds: 5, Microseconds: -7, ECU: ecu}, log, many...)
	add(sh, log) // verbose, no arguments
	big := log
	big.Order, big.Counter = binary.BigEndian, 200
	add(dlt.StorageHeader{Seconds: 86399, Microseconds: 2000000}, big, all...)
	plain := dlt.Header{WithTimestamp: true, Timestamp: 9, Counter: 3}
	add(sh, plain, dlt.ArgSpec{Kind: dlt.KindRaw, Data: []byte{0x10, 0, 0, 0, 0xaa, 0xbb}})
	nv := dlt.Header{Extended: true, Type: dlt.TypeAppTrace, Subtype: 9, AppID: app, ContextID: dlt.MakeID("\x00\x00")}
	add(sh, nv, dlt.ArgSpec{Kind: dlt.KindRaw, Data: []byte{1, 0, 0, 0, 0xde, 0xad}})
	for sub, payload := range [][]byte{{0x13, 0, 0, 0}, {0x13, 0, 0, 0, 0, 'x'}, {0xf0, 0xf0, 0, 0, 8, 1}, {3, 0, 0, 0}} {
		h := dlt.Header{WithECU: true, ECU: dlt.MakeID("E\x00\x00\x00"), Extended: true, Type: dlt.TypeControl, Subtype: uint8(1 + sub%3)}
		add(sh, h, dlt.ArgSpec{Kind: dlt.KindRaw, Data: payload})
	}
	// Verbose payloads whose arguments stop decoding (the payload text
	// ends with a space when one fails after the first): NOAR beyond the
	// arguments, an argument cut short after two, a bad type info first,
	// bytes after the last argument.
	str := func(s string) []byte { b, _ := dlt.AppendStringArg(nil, s, nil); return b }
	for _, c := range []struct {
		noar int
		p    []byte
	}{
		{3, append(str("a"), str("b\xff")...)},
		{3, append(append(str("a"), str("b")...), 0x00, 0x02, 0, 0, 9, 0, 'x')},
		{2, append([]byte{0x43, 0, 0, 0, 1}, str("a")...)},
		{1, append(str("a"), str("b")...)},
	} {
		m := dlt.NewBuilder(dlt.AppendStorageHeader(out, sh), log)
		m.Bytes(c.p, c.noar)
		b, err := m.Finish()
		if err != nil {
			t.Fatal(err)
		}
		out = b
	}
	return out
}

// TestAppendDLTDecode checks dlt_decode's in-place writer against the
// DLTDecode DecodeDLT builds, marshalled, byte for byte: on dltVariety,
// the DLT captures, each cut short and damaged (arguments that fail,
// resynchronisation), after bytes already in the buffer.
func TestAppendDLTDecode(t *testing.T) {
	for name, in := range dltInputs(t) {
		r := DecodeDLT(in)
		want, err := r.MarshalMsg([]byte("head"))
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendDLTDecode([]byte("head"), in); !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes, want %d (%d messages)", name, len(got), len(want), len(r.Messages))
		}
	}
}

// TestDLTWriter checks DLTWriter.AppendMessage, `perfwire dlt --json`'s
// writer, against the DLTMessage NewDLTMessage builds, marshalled, byte
// for byte: every message of dltVariety and the DLT captures, whole, cut
// short and damaged, one writer for all, after bytes already in the
// buffer.
func TestDLTWriter(t *testing.T) {
	var w DLTWriter
	var got []byte
	msgs := 0
	for name, in := range dltInputs(t) {
		for i, s := 0, dlt.NewScanner(in, dlt.Options{}); s.Next(); i++ {
			m := s.Message()
			d := NewDLTMessage(m, i)
			want, err := d.MarshalMsg([]byte("head"))
			if err != nil {
				t.Fatal(err)
			}
			if got = w.AppendMessage(append(got[:0], "head"...), m, i); !bytes.Equal(got, want) {
				t.Errorf("%s message %d at %d: %d bytes, want %d (payload %q)", name, i, m.Offset(), len(got), len(want), d.Payload)
			}
			msgs++
		}
	}
	if msgs < 1000 {
		t.Fatalf("%d messages", msgs)
	}
}

// dltInputs are dltVariety and the DLT captures of wasm/testdata, each
// whole, cut short and damaged (arguments that fail, resynchronisation).
func dltInputs(t *testing.T) map[string][]byte {
	inputs := map[string][]byte{"variety": dltVariety(t)}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.dlt"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(name)] = b
	}
	all := map[string][]byte{}
	for name, in := range inputs {
		damaged := bytes.Clone(in)
		for i := 40; i < len(damaged); i += 331 {
			damaged[i] ^= 0x5a
		}
		all[name+" whole"], all[name+" cut"], all[name+" damaged"] = in, in[:len(in)*2/3], damaged
	}
	return all
}

// BenchmarkAppendDLTDecode runs dlt_decode natively on each DLT capture
// of wasm/testdata, into one reused buffer as the module does.
func BenchmarkAppendDLTDecode(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.dlt"))
	for _, name := range files {
		in, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(name), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			var out []byte
			for b.Loop() {
				out = AppendDLTDecode(out[:0], in)
			}
		})
	}
}
