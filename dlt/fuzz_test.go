package dlt

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"sigs.k8s.io/randfill"
)

// eachSeedRecord calls perRecord with the first records of each capture,
// so the fuzzers start from real framing and real arguments.
func eachSeedRecord(f *testing.F, perRecord func(m Message)) {
	for _, c := range captures {
		s := NewScanner(readCapture(f, c.name), Options{})
		for i := 0; s.Next() && i < 40; i++ {
			perRecord(s.Message())
		}
	}
}

// FuzzScanner scans arbitrary bytes in every framing. Invariants: no
// panic; messages are in order, inside the input and never overlap;
// skipped bytes and messages never add up to more than the input; every
// verbose message whose arguments decode re-encodes to a message with
// the same header fields and argument texts.
func FuzzScanner(f *testing.F) {
	for _, c := range captures {
		data := readCapture(f, c.name)
		f.Add(data[:min(len(data), 4096)])
	}
	f.Add(readCapture(f, "excerpt-irq-strtok-race"))
	eachSeedRecord(f, func(m Message) { f.Add(m.Bytes()) })
	f.Fuzz(func(t *testing.T, data []byte) {
		data = data[:len(data):len(data)]
		for _, fr := range []Framing{FramingStorage, FramingSerial, FramingBare} {
			s := NewScanner(data, Options{Framing: fr})
			end, total := 0, 0
			for s.Next() {
				m := s.Message()
				if m.Offset() < end || m.Offset()+len(m.Bytes()) > len(data) || m.Len() > MaxMessageLen {
					t.Fatalf("message at %d (len %d) after %d, input %d", m.Offset(), len(m.Bytes()), end, len(data))
				}
				end = m.Offset() + len(m.Bytes())
				total += len(m.Bytes())
				checkReencode(t, m)
			}
			if total+s.Skipped() > len(data) {
				t.Fatalf("messages %d + skipped %d > input %d", total, s.Skipped(), len(data))
			}
			if s.Err() == nil && s.Offset() != len(data) {
				t.Fatalf("clean end at %d of %d", s.Offset(), len(data))
			}
		}
	})
}

// checkReencode re-encodes a verbose message whose arguments all decode
// and compares the result field by field.
func checkReencode(t *testing.T, m Message) {
	if !m.Verbose() {
		return
	}
	var specs []ArgSpec
	for a, err := range m.Args() {
		if err != nil {
			return
		}
		// The scanner's in-place fast path and ConsumeArg agree.
		c, _, err := ConsumeArg(m.Payload()[a.Offset()-m.PayloadOffset():], m.Order())
		if err != nil {
			t.Fatalf("ConsumeArg fails where the scanner decoded: %v", err)
		}
		compareArgs(t, c, specOf(a))
		specs = append(specs, specOf(a))
	}
	var out []byte
	if m.HasStorageHeader() {
		out = AppendStorageHeader(out, m.StorageHeader())
	}
	b := NewBuilder(out, headerOf(m))
	for _, s := range specs {
		b.Arg(s)
	}
	out, err := b.Finish()
	if err != nil {
		t.Fatalf("re-encoding: %v", err)
	}
	opt := Options{Framing: FramingBare}
	if m.HasStorageHeader() {
		opt.Framing = FramingStorage
	}
	r, n, err := ConsumeMessage(out, opt)
	if err != nil || n != len(out) {
		t.Fatalf("re-encoded message: %v", err)
	}
	if r.HeaderType() != m.HeaderType() || r.Counter() != m.Counter() || r.ECU() != m.ECU() ||
		r.AppID() != m.AppID() || r.ContextID() != m.ContextID() || r.NumArgs() != len(specs) ||
		r.Type() != m.Type() || r.Subtype() != m.Subtype() || r.StorageHeader() != m.StorageHeader() {
		t.Fatalf("re-encoded header differs: %x vs %x", r.Bytes(), m.Bytes())
	}
	if ecu, app, ctx := r.IDs(); ecu != m.ECU() || app != m.AppID() || ctx != m.ContextID() {
		t.Fatalf("IDs %q %q %q, want %q %q %q", ecu, app, ctx, m.ECU(), m.AppID(), m.ContextID())
	}
	i := 0
	for a, err := range r.Args() {
		if err != nil {
			t.Fatalf("re-encoded argument %d: %v", i, err)
		}
		compareArgs(t, a, specs[i])
		i++
	}
}

// compareArgs checks a decoded argument against the spec it came from.
func compareArgs(t *testing.T, a Arg, s ArgSpec) {
	t.Helper()
	got := specOf(a)
	floatEq := got.Float == s.Float || (math.IsNaN(got.Float) && math.IsNaN(s.Float))
	if got.Kind != s.Kind || got.Bits != s.Bits || got.Coding != s.Coding || got.VarInfo != s.VarInfo ||
		got.Name != s.Name || got.Unit != s.Unit || got.FixedPoint != s.FixedPoint ||
		math.Float32bits(got.Quantization) != math.Float32bits(s.Quantization) || got.FixedOffset != s.FixedOffset ||
		got.Bool != s.Bool || got.Uint != s.Uint || got.UintHi != s.UintHi || !floatEq || !bytes.Equal(got.Data, s.Data) {
		t.Fatalf("argument %+v decodes as %+v", s, got)
	}
}

// FuzzArg decodes one argument in either byte order; a decoded argument
// must re-encode to one that decodes equal.
func FuzzArg(f *testing.F) {
	f.Add(false, []byte{0x00, 0x02, 0, 0, 4, 0, 'N', 'E', 'W', 0})
	eachSeedRecord(f, func(m Message) {
		if m.Verbose() {
			f.Add(m.big(), m.Payload())
		}
	})
	f.Fuzz(func(t *testing.T, big bool, p []byte) {
		p = p[:len(p):len(p)]
		for len(p) > 0 {
			a, n, err := ConsumeArg(p, orderOf(big))
			if err != nil {
				if _, ok := err.(*ParseError); !ok {
					t.Fatalf("error %T", err)
				}
				return
			}
			if n <= 0 || n > len(p) {
				t.Fatalf("consumed %d of %d", n, len(p))
			}
			if _, err := a.AppendText(nil); err != nil {
				t.Fatal(err)
			}
			s := specOf(a)
			out, err := AppendArg(nil, s, orderOf(big))
			if err != nil {
				t.Fatalf("re-encoding %+v: %v", s, err)
			}
			b, m, err := ConsumeArg(out, orderOf(big))
			if err != nil || m != len(out) {
				t.Fatalf("re-encoded %x: %v", out, err)
			}
			compareArgs(t, b, s)
			p = p[n:]
		}
	})
}

// fuzzMessage is what FuzzEncodeRoundTrip fills at random.
type fuzzMessage struct {
	Storage   StorageHeader
	Header    Header
	Args      []fuzzArg
	Framing   uint8
	HexSerial bool
}

type fuzzArg struct {
	Kind, Size, Coding uint8
	VarInfo, Fixed     bool
	Name, Unit         string
	Quant              float32
	FixedOffset        int64
	Bool               bool
	Uint, UintHi       uint64
	Float              float64
	Data               []byte
}

// spec turns random fields into a valid ArgSpec, normalising values to
// what the chosen width can hold so that decoding must return them.
func (f fuzzArg) spec() ArgSpec {
	s := ArgSpec{Kind: Kind(f.Kind%7 + 1), VarInfo: f.VarInfo, Name: f.Name, Data: f.Data}
	switch s.Kind {
	case KindBool:
		s.Bits, s.Bool = 8, f.Bool
	case KindSigned, KindUnsigned:
		s.Bits = 8 << (f.Size % 5)
		s.FixedPoint, s.Quantization, s.FixedOffset = f.Fixed, f.Quant, f.FixedOffset
		if s.FixedPoint && s.Bits <= 32 {
			s.FixedOffset = int64(int32(f.FixedOffset))
		}
		s.Uint, s.UintHi = f.Uint, f.UintHi
		if s.Bits < 128 {
			s.UintHi = 0
			shift := 64 - uint(s.Bits)
			s.Uint = f.Uint << shift >> shift
			if s.Kind == KindSigned {
				s.Uint = uint64(int64(f.Uint<<shift) >> shift)
				if int64(s.Uint) < 0 {
					s.UintHi = math.MaxUint64
				}
			}
		}
		if s.Kind == KindUnsigned {
			s.Coding = Coding(f.Coding % 4)
		}
	case KindFloat:
		s.Bits = 16 << (f.Size % 4)
		switch s.Bits {
		case 16:
			s.Float = float16to64(uint16(f.Uint))
		case 32:
			s.Float = float64(math.Float32frombits(uint32(f.Uint)))
		default:
			s.Float = f.Float
		}
	case KindString, KindTrace:
		s.Coding = Coding(f.Coding % 2)
		// Strings end at the NUL the encoder adds; interior NULs stay.
		if n := len(s.Data); n > 0 && s.Data[n-1] == 0 {
			s.Data = s.Data[:n-1]
		}
	}
	if s.Kind == KindFloat || s.Kind == KindSigned || s.Kind == KindUnsigned {
		s.Unit = f.Unit
	}
	if !s.VarInfo {
		s.Name, s.Unit = "", ""
	}
	s.Name = trimString(s.Name)
	s.Unit = trimString(s.Unit)
	if !s.FixedPoint {
		s.Quantization, s.FixedOffset = 0, 0
	}
	if s.Kind != KindString && s.Kind != KindRaw && s.Kind != KindTrace {
		s.Data = nil
	}
	return s
}

// trimString drops a trailing NUL, which the decoder cannot tell from
// the terminator.
func trimString(s string) string {
	if n := len(s); n > 0 && s[n-1] == 0 {
		return s[:n-1]
	}
	return s
}

// FuzzEncodeRoundTrip fills random messages with randfill, encodes them
// with the Builder and checks that the scanner returns every field.
func FuzzEncodeRoundTrip(f *testing.F) {
	f.Add([]byte("seed"))
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	f.Fuzz(func(t *testing.T, data []byte) {
		var fm fuzzMessage
		randfill.NewFromGoFuzz(data).NilChance(0).NumElements(0, 8).Funcs(
			func(o *binary.ByteOrder, c randfill.Continue) { *o = orderOf(c.Bool()) },
		).Fill(&fm)
		h := fm.Header
		h.Verbose, h.Extended = true, true
		h.Type &= 3
		h.Subtype &= 15
		if !h.WithECU {
			h.ECU = ID{}
		}
		if !h.WithSessionID {
			h.SessionID = 0
		}
		if !h.WithTimestamp {
			h.Timestamp = 0
		}
		opt := Options{Framing: Framing(fm.Framing % 3)}
		var b []byte
		switch opt.Framing {
		case FramingStorage:
			b = AppendStorageHeader(b, fm.Storage)
		case FramingSerial:
			b = AppendSerialHeader(b)
		}
		m := NewBuilder(b, h)
		specs := make([]ArgSpec, len(fm.Args))
		for i, a := range fm.Args {
			specs[i] = a.spec()
			m.Arg(specs[i])
		}
		out, err := m.Finish()
		if err != nil {
			return // more than 64 KiB of names and data
		}
		ms := scanAll(t, out, opt)
		if len(ms) != 1 {
			t.Fatalf("%d messages", len(ms))
		}
		got := ms[0]
		gh := headerOf(got)
		if gh != h {
			t.Fatalf("header %+v, want %+v", gh, h)
		}
		if opt.Framing == FramingStorage && got.StorageHeader() != fm.Storage {
			t.Fatalf("storage header %+v, want %+v", got.StorageHeader(), fm.Storage)
		}
		i := 0
		for a, err := range got.Args() {
			if err != nil {
				t.Fatal(err)
			}
			compareArgs(t, a, specs[i])
			i++
		}
		if i != len(specs) {
			t.Fatalf("%d arguments, want %d", i, len(specs))
		}
	})
}
