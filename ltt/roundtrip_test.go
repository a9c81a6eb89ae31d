package ltt_test

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/perfwire/perfwire/ltt"
	"sigs.k8s.io/randfill"
)

// demoFacility covers every type class (union as the tag-first
// extension), at base 22 after core's 0–21.
func demoFacility() *ltt.Facility {
	u := func(s ltt.SizeCode) *ltt.Type { return &ltt.Type{Kind: ltt.KindUint, Size: s} }
	i := func(s ltt.SizeCode) *ltt.Type { return &ltt.Type{Kind: ltt.KindInt, Size: s} }
	str := &ltt.Type{Kind: ltt.KindString}
	pair := &ltt.Type{Kind: ltt.KindStruct, Fields: []ltt.Field{{Name: "k", Type: u(ltt.Size2)}, {Name: "v", Type: i(ltt.Size8)}}}
	all := &ltt.Type{Kind: ltt.KindStruct, Fields: []ltt.Field{
		{Name: "a", Type: i(ltt.SizeShort)},
		{Name: "b", Type: u(ltt.SizeMedium)},
		{Name: "c", Type: i(ltt.SizeLong)},
		{Name: "d", Type: &ltt.Type{Kind: ltt.KindFloat, Size: ltt.Size8}},
		{Name: "e", Type: str},
		{Name: "f", Type: &ltt.Type{Kind: ltt.KindEnum, Size: ltt.Size2, Labels: []ltt.Label{{Name: "ZERO"}, {Name: "FIVE", Value: "5"}}}},
		{Name: "g", Type: &ltt.Type{Kind: ltt.KindArray, Count: 3, Elem: u(ltt.Size1)}},
		{Name: "h", Type: &ltt.Type{Kind: ltt.KindSequence, Size: ltt.Size4, Elem: pair}},
		{Name: "i", Type: &ltt.Type{Kind: ltt.KindUnion, Size: ltt.Size1, Fields: []ltt.Field{{Name: "x", Type: u(ltt.Size4)}, {Name: "y", Type: str}}}},
		{Name: "j", Type: &ltt.Type{Kind: ltt.KindFloat, Size: ltt.SizeMedium}},
		{Name: "m", Type: &ltt.Type{Kind: ltt.KindSequence, Size: ltt.Size1, Elem: str}},
		{Name: "n", Type: i(ltt.Size1)},
		{Name: "o", Type: u(ltt.SizeLong)},
	}}
	return &ltt.Facility{Name: "demo", Base: 22, Events: []ltt.EventDef{
		{Name: "ev_empty"}, {Name: "ev_all", Type: all}, {Name: "ev_ref", Type: pair},
	}}
}

// mv is a decoded value in a form that is easy to compare: the naive
// model both sides are converted to.
type mv struct {
	bits  uint64 // integers (sign-extended), float bits, union tag
	text  string
	elems []mv
}

func equal(a, b mv) bool {
	if a.bits != b.bits || a.text != b.text || len(a.elems) != len(b.elems) {
		return false
	}
	for i := range a.elems {
		if !equal(a.elems[i], b.elems[i]) {
			return false
		}
	}
	return true
}

// decodeModel converts a reader Value into an mv by walking it.
func decodeModel(t *testing.T, v ltt.Value) mv {
	switch v.Kind() {
	case ltt.KindInt:
		return mv{bits: uint64(v.Int())}
	case ltt.KindUint, ltt.KindEnum:
		return mv{bits: v.Uint()}
	case ltt.KindFloat:
		if len(v.Bytes()) == 4 {
			return mv{bits: uint64(math.Float32bits(float32(v.Float())))}
		}
		return mv{bits: math.Float64bits(v.Float())}
	case ltt.KindString:
		return mv{text: string(v.Text())}
	}
	m := mv{}
	if v.Kind() == ltt.KindUnion {
		m.bits = v.Uint()
	}
	it := v.Iter()
	for it.Next() {
		m.elems = append(m.elems, decodeModel(t, it.Value()))
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}

// encodeModel is the naive encoder: it lays m out as type ty.
func encodeModel(l ltt.Layout, b []byte, ty *ltt.Type, m mv) []byte {
	if ty == nil {
		return b
	}
	switch ty.Kind {
	case ltt.KindInt, ltt.KindUint, ltt.KindEnum:
		return l.AppendUint(b, ty.Size, m.bits)
	case ltt.KindFloat:
		if l.Arch.FloatBytes(ty.Size) == 4 {
			return l.AppendFloat(b, ty.Size, float64(math.Float32frombits(uint32(m.bits))))
		}
		return l.AppendFloat(b, ty.Size, math.Float64frombits(m.bits))
	case ltt.KindString:
		return l.AppendString(b, []byte(m.text))
	case ltt.KindSequence:
		b = l.AppendUint(b, ty.Size, uint64(len(m.elems)))
		fallthrough
	case ltt.KindArray:
		for _, e := range m.elems {
			b = encodeModel(l, b, ty.Elem, e)
		}
	case ltt.KindStruct:
		for i, f := range ty.Fields {
			b = encodeModel(l, b, f.Type, m.elems[i])
		}
	case ltt.KindUnion:
		b = l.AppendUint(b, ty.Size, m.bits)
		b = encodeModel(l, b, ty.Fields[m.bits].Type, m.elems[0])
	}
	return b
}

// rtEvent is what randfill fills: one event of the demo facility.
type rtEvent struct {
	Which    uint8
	Gap      uint64
	GapShift uint8
	A        int16
	B, C, O  uint64
	D        float64
	E        string
	F        uint16
	G        [3]uint8
	H        []struct {
		K uint16
		V int64
	}
	UnionY bool
	X      uint32
	Y      string
	J      float32
	M      []string
	N      int8
}

type rtTrace struct {
	BigEndian bool
	Arch      uint8
	BlockSize uint16
	Events    []rtEvent
}

// trunc keeps the low n bytes of v, sign-extending when signed.
func trunc(v uint64, n int, signed bool) uint64 {
	s := 64 - 8*uint(n)
	if signed {
		return uint64(int64(v<<s) >> s)
	}
	return v << s >> s
}

func cstr(s string) string {
	if i := bytes.IndexByte([]byte(s), 0); i >= 0 {
		return s[:i]
	}
	return s
}

// model turns a filled event into the expected decoded value for arch.
func (e *rtEvent) model(a ltt.Arch) mv {
	h := mv{}
	for _, p := range e.H {
		h.elems = append(h.elems, mv{elems: []mv{{bits: uint64(p.K)}, {bits: uint64(p.V)}}})
	}
	if len(h.elems) > 40 {
		h.elems = h.elems[:40]
	}
	m := mv{}
	for _, s := range e.M {
		m.elems = append(m.elems, mv{text: cstr(s)})
	}
	if len(m.elems) > 255 {
		m.elems = m.elems[:255]
	}
	u := mv{bits: 0, elems: []mv{{bits: uint64(e.X)}}}
	if e.UnionY {
		u = mv{bits: 1, elems: []mv{{text: cstr(e.Y)}}}
	}
	return mv{elems: []mv{
		{bits: uint64(int64(e.A))},
		{bits: trunc(e.B, a.IntBytes(ltt.SizeMedium), false)},
		{bits: trunc(e.C, a.IntBytes(ltt.SizeLong), true)},
		{bits: math.Float64bits(e.D)},
		{text: cstr(e.E)},
		{bits: uint64(e.F)},
		{elems: []mv{{bits: uint64(e.G[0])}, {bits: uint64(e.G[1])}, {bits: uint64(e.G[2])}}},
		h,
		u,
		{bits: uint64(math.Float32bits(e.J))},
		m,
		{bits: uint64(int64(e.N))},
		{bits: trunc(e.O, a.IntBytes(ltt.SizeLong), false)},
	}}
}

type written struct {
	id     uint16
	cycles uint64
	val    mv
}

// roundTrip writes the filled trace, reads it back and compares; it also
// re-writes what it read and expects identical bytes.
func roundTrip(t *testing.T, tr *rtTrace) (heartbeats int) {
	arch := []ltt.Arch{ltt.LP32, ltt.ILP32, ltt.LP64, ltt.ILP64}[tr.Arch%4]
	cfg := ltt.Options{BigEndian: tr.BigEndian, Arch: arch, BlockSize: 200 + int(tr.BlockSize%4000), Version: ltt.Version2, WriteUnions: true}
	r, err := ltt.NewDecoder(cfg, ltt.Core(), demoFacility())
	if err != nil {
		t.Fatal(err)
	}
	l := r.Layout()
	clock := func(c uint64) (uint32, uint32) { return uint32(c / 3e9), uint32(c % 3e9 / 3) }
	w := ltt.NewWriter(r, clock)
	var want []written
	var cycles uint64
	for i := range tr.Events {
		e := &tr.Events[i]
		// Gaps up to 2^40 cycles: up to 256 heartbeats each.
		cycles += e.Gap >> (24 + e.GapShift%41)
		id := 22 + uint16(e.Which%3)
		var val mv
		switch id {
		case 23:
			val = e.model(arch)
		case 24:
			val = mv{elems: []mv{{bits: uint64(e.A)}, {bits: uint64(int64(e.C))}}}
			val.elems[0].bits = uint64(uint16(e.A))
		}
		payload := encodeModel(l, nil, r.EventType(id).Def.Type, val)
		// An event too large for a block is skipped; a refused event
		// would end w (its error is sticky), so a fresh writer tries it.
		if err := ltt.NewWriter(r, clock).Event(id, cycles, payload); errors.Is(err, ltt.ErrEventTooLarge) {
			continue
		}
		if err := w.Event(id, cycles, payload); err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		want = append(want, written{id, cycles, val})
	}
	file := finish(t, w)
	if len(file)%cfg.BlockSize != 0 {
		t.Fatalf("file of %d bytes", len(file))
	}
	tf := r.Tracefile(bytes.NewReader(file), int64(len(file)))
	var got []written
	var all []*ltt.Event
	w2 := ltt.NewWriter(r, clock)
	prevID := int64(-1)
	for blk, err := range tf.Blocks() {
		if err != nil {
			t.Fatal(err)
		}
		if blk.Version != ltt.Version2 || int64(blk.Start.BlockID) <= prevID {
			t.Fatalf("block %d version %v", blk.Start.BlockID, blk.Version)
		}
		prevID = int64(blk.Start.BlockID)
		var prev uint64
		for ev, err := range blk.Events() {
			if err != nil {
				t.Fatal(err)
			}
			if ev.Time < blk.StartTime() || ev.Time > blk.EndTime() || ev.Cycles < prev {
				t.Fatalf("event at %d: time %d cycles %d outside block", ev.Offset, ev.Time, ev.Cycles)
			}
			prev = ev.Cycles
			switch ev.ID {
			case ltt.IDBlockStart, ltt.IDBlockEnd:
				continue
			case ltt.IDTimeHeartbeat:
				heartbeats++
			default:
				got = append(got, written{ev.ID, ev.Cycles, decodeModel(t, ev.Payload())})
			}
			if err := w2.Event(ev.ID, ev.Cycles, ev.Payload().Bytes()); err != nil {
				t.Fatal(err)
			}
			all = append(all, ev)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("read %d events, wrote %d", len(got), len(want))
	}
	for i := range want {
		if got[i].id != want[i].id || got[i].cycles != want[i].cycles || !equal(got[i].val, want[i].val) {
			t.Fatalf("event %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if again := finish(t, w2); !bytes.Equal(again, file) {
		t.Fatalf("re-written file differs (%d vs %d bytes)", len(again), len(file))
	}
	return heartbeats
}

// FuzzRoundTrip fills random traces with randfill: random layouts, block
// sizes, values of every type and gaps that force wraps, heartbeats and
// block overflow.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("seed"))
	f.Add(bytes.Repeat([]byte{0xff, 0x01, 0x80}, 200))
	f.Add(bytes.Repeat([]byte{0x13, 0x37, 0x00, 0x42, 0x99}, 400))
	f.Fuzz(func(t *testing.T, data []byte) {
		var tr rtTrace
		randfill.NewFromGoFuzz(data).NilChance(0).NumElements(0, 20).Fill(&tr)
		for i := range tr.Events {
			if len(tr.Events[i].M) > 10 {
				tr.Events[i].M = tr.Events[i].M[:10]
			}
		}
		roundTrip(t, &tr)
	})
}

func TestWriterRefusesUnions(t *testing.T) {
	r, err := ltt.NewDecoder(ltt.Options{Arch: ltt.ILP32, BlockSize: 4096}, ltt.Core(), demoFacility())
	if err != nil {
		t.Fatal(err)
	}
	// after100 is a writer that holds one event at cycle 100.
	after100 := func() *ltt.Writer {
		w := ltt.NewWriter(r, nil)
		if err := w.Event(22, 100, nil); err != nil {
			t.Fatal(err)
		}
		return w
	}
	big := append(make([]byte, 9), bytes.Repeat([]byte("x"), 5000)...)
	for _, tc := range []struct {
		name    string
		w       *ltt.Writer
		id      uint16
		cycles  uint64
		payload []byte
		kind    error
	}{
		{"union event without WriteUnions", ltt.NewWriter(r, nil), 23, 0, nil, ltt.ErrUnion},
		{"short payload", ltt.NewWriter(r, nil), 24, 0, []byte{1}, ltt.ErrPayload},
		{"cycles backwards", after100(), 22, 99, nil, ltt.ErrCycles},
		{"huge gap", after100(), 22, 1 << 60, nil, ltt.ErrLimit},
		{"block_end by hand", after100(), ltt.IDBlockEnd, 200, make([]byte, 20), ltt.ErrUnknownEvent},
		{"oversized payload", after100(), 24, 200, make([]byte, 5000), ltt.ErrPayload},
		{"event larger than a block", after100(), 11, 200, append(big, 0), ltt.ErrEventTooLarge},
	} {
		err := tc.w.Event(tc.id, tc.cycles, tc.payload)
		if !errors.Is(err, tc.kind) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.kind)
			continue
		}
		// The error is sticky: a valid event after it is refused with
		// it, and Finish reports it instead of a file.
		if again := tc.w.Event(22, 1000, nil); again != err {
			t.Errorf("%s: next event: %v, want the first error %v", tc.name, again, err)
		}
		if file, ferr := tc.w.Finish(); ferr != err || file != nil {
			t.Errorf("%s: Finish = %d bytes, %v; want nil, %v", tc.name, len(file), ferr, err)
		}
	}
	// 1<<60 cycles after 100 need (1<<60-100)/(2^32-1) heartbeats.
	if pe, ok := errors.AsType[*ltt.ParseError](after100().Event(22, 1<<60, nil)); !ok || pe.Limit != ltt.MaxHeartbeats || pe.Value != int64((1<<60-100)/0xffffffff) {
		t.Errorf("huge gap: %#v, want the heartbeats needed and MaxHeartbeats", pe)
	}
}

// finish returns w's tracefile, failing the test on an error.
func finish(t testing.TB, w *ltt.Writer) []byte {
	t.Helper()
	file, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return file
}

// TestRoundTripSeeded runs many randfill-generated traces deterministically.
func TestRoundTripSeeded(t *testing.T) {
	for seed := range 200 {
		var tr rtTrace
		randfill.NewWithSeed(int64(seed)).NilChance(0).NumElements(0, 30).Fill(&tr)
		if seed%7 == 0 {
			// force large gaps: heartbeats and wraps
			for i := range tr.Events {
				tr.Events[i].GapShift = 0 // gap = Gap >> 24: 2^33 and more
				tr.Events[i].Gap = 1<<57 + uint64(i)<<50
			}
		}
		if beats := roundTrip(t, &tr); seed%7 == 0 && len(tr.Events) > 1 && beats == 0 {
			t.Fatalf("seed %d: no heartbeat for gaps of 2^33 cycles", seed)
		}
	}
}
