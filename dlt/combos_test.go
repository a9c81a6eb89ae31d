package dlt

import (
	"bytes"
	"errors"
	"testing"
)

// TestNumericCombinations encodes every numeric width with and without
// VARI and FIXP in both byte orders inside one message, and checks the
// decoder returns each field and consumes the payload exactly.
func TestNumericCombinations(t *testing.T) {
	for _, big := range []bool{false, true} {
		var specs []ArgSpec
		for _, kind := range []Kind{KindSigned, KindUnsigned, KindFloat, KindBool} {
			for _, bits := range []int{8, 16, 32, 64, 128} {
				if (kind == KindFloat && bits == 8) || (kind == KindBool && bits != 8) {
					continue
				}
				for _, vari := range []bool{false, true} {
					for _, fixp := range []bool{false, true} {
						if fixp && (kind == KindFloat || kind == KindBool) {
							continue
						}
						s := ArgSpec{Kind: kind, Bits: bits, VarInfo: vari, FixedPoint: fixp, Bool: kind == KindBool}
						if vari {
							s.Name = "speed"
							if kind != KindBool {
								s.Unit = "km/h"
							}
						}
						if fixp {
							s.Quantization, s.FixedOffset = 0.25, -1000
						}
						switch kind {
						case KindSigned:
							s.Uint, s.UintHi = ^uint64(99), ^uint64(0) // -100
						case KindUnsigned:
							s.Uint = 100
						case KindFloat:
							s.Float = -2.5
						}
						specs = append(specs, s)
					}
				}
			}
		}
		h := LogHeader(MakeID("E"), MakeID("A"), MakeID("C"), LevelWarn, 1, 2)
		h.Order = orderOf(big)
		m := NewBuilder(nil, h)
		for _, s := range specs {
			m.Arg(s)
		}
		out, err := m.Finish()
		if err != nil {
			t.Fatal(err)
		}
		msg := scanAll(t, out, Options{Framing: FramingBare})[0]
		if msg.NumArgs() != len(specs) {
			t.Fatalf("NOAR %d, want %d", msg.NumArgs(), len(specs))
		}
		i := 0
		for a, err := range msg.Args() {
			if err != nil {
				t.Fatal(err)
			}
			s := specs[i]
			compareArgs(t, a, s)
			if s.Kind == KindSigned && (a.Int() != -100 || a.FixedOffset() != s.FixedOffset) {
				t.Errorf("arg %d: %d offset %d", i, a.Int(), a.FixedOffset())
			}
			i++
		}
	}
}

func TestClone(t *testing.T) {
	rec := strRecord(t, "original")
	m, _, err := ConsumeMessage(rec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var a Arg
	for x := range m.Args() {
		a = x
	}
	mc, ac := m.Clone(), a.Clone()
	copy(rec[len(rec)-9:], "XXXXXXXX")
	if string(ac.Bytes()) != "original" || !bytes.Contains(mc.Bytes(), []byte("original")) {
		t.Fatalf("clones alias the input: %q", ac.Bytes())
	}
	if string(a.Bytes()) != "XXXXXXXX" {
		t.Fatal("views must alias the input")
	}
	if mc.AppID() != m.AppID() || mc.Offset() != m.Offset() || mc.Len() != m.Len() {
		t.Fatal("clone differs")
	}
}

func TestID(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want string
		n    int
	}{{"PROC", "PROC", 4}, {"DA1", "DA1", 3}, {"", "", 0}, {"TOOLONG", "TOOL", 4}} {
		id := MakeID(tt.in)
		b, _ := id.AppendText(nil)
		if id.String() != tt.want || id.Len() != tt.n || string(b) != tt.want {
			t.Errorf("MakeID(%q) = %q len %d", tt.in, id.String(), id.Len())
		}
	}
}

// TestZeroValues: the zero Message and Arg (paired with errors by the
// iterators) are safe to inspect.
func TestZeroValues(t *testing.T) {
	var m Message
	_, ecu := m.HeaderECU()
	_, sid := m.SessionID()
	_, ts := m.Timestamp()
	_, id := m.MessageID()
	if m.HeaderType() != 0 || m.Len() != 0 || m.Counter() != 0 || m.Version() != 0 || m.Order() != orderOf(false) || ecu || sid || ts || id ||
		m.Verbose() || m.NumArgs() != 0 || len(m.Payload()) != 0 || m.ECU() != (ID{}) || m.StorageHeader() != (StorageHeader{}) ||
		m.NonVerboseData() != nil || len(m.Clone().Bytes()) != 0 {
		t.Fatal("zero Message is not empty")
	}
	for _, err := range m.Args() {
		wantErr(t, err, ErrNotVerbose, 0)
	}
	var a Arg
	txt, _ := a.AppendText(nil)
	if a.Kind() != KindInvalid || a.Bits() != 0 || a.Bool() || a.Uint() != 0 || a.Float() != 0 || len(txt) != 0 ||
		a.Quantization() != 0 || a.FixedOffset() != 0 || a.Kind().String() != "invalid" {
		t.Fatal("zero Arg is not empty")
	}
	if hi, lo := a.Uint128(); hi != 0 || lo != 0 {
		t.Fatal("zero Arg value")
	}
	if TypeControl.String() != "control" || MessageType(5).String() != "" || SubtypeName(TypeLog, LevelVerbose) != "verbose" ||
		SubtypeName(MessageType(4), 1) != "" || KindFloat.String() != "float" || Kind(99).String() != "invalid" {
		t.Fatal("names")
	}
}

// TestBuilderHelpers: the Builder's typed helpers write what dlt-convert
// prints (texts per the conformance test) and fail sticky.
func TestBuilderHelpers(t *testing.T) {
	m := NewBuilder(nil, LogHeader(MakeID("E"), MakeID("A"), MakeID("C"), LevelInfo, 1, 2))
	m.Bool(true)
	m.Int(-7, 16)
	m.Uint(300, 32)
	m.Float(0.1, 32)
	m.Raw([]byte{0xde, 0xad})
	m.String("s")
	out, err := m.Finish()
	if err != nil {
		t.Fatal(err)
	}
	msg := scanAll(t, out, Options{Framing: FramingBare})[0]
	txt := msg.AppendPayloadText(nil)
	if string(txt) != "1 -7 300 0.1 de'ad s" || msg.NumArgs() != 6 {
		t.Fatalf("%q", txt)
	}
	m = NewBuilder(nil, LogHeader(MakeID("E"), MakeID("A"), MakeID("C"), LevelInfo, 1, 2))
	m.Int(1, 12)
	m.String("not written")
	out, err = m.Finish()
	wantErr(t, err, ErrType, 26)
	if len(out) != 26 {
		t.Fatalf("%d bytes after a failed argument", len(out))
	}
	m = NewBuilder(nil, Header{Extended: true, Verbose: true})
	for range 256 {
		m.Bool(false)
	}
	_, err = m.Finish()
	wantErr(t, err, ErrLimit, 5)
	m = NewBuilder(nil, Header{})
	m.Raw(make([]byte, 65000))
	m.Raw(make([]byte, 600))
	_, err = m.Finish()
	wantErr(t, err, ErrLimit, 2)
	if _, err := AppendStringArg(nil, string(make([]byte, 65535)), nil); !errors.Is(err, ErrLimit) {
		t.Fatal(err)
	}
	if _, err := AppendArg(nil, ArgSpec{Kind: KindString, Data: make([]byte, 65535)}, nil); !errors.Is(err, ErrLimit) {
		t.Fatal(err)
	}
}
