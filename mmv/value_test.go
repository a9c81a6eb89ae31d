package mmv_test

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/mmv"
)

// slotOf returns the slot of a sample metric.
func slotOf(t *testing.T, p *mmv.Plan, b []byte, order binary.ByteOrder, name, inst string) mmv.Slot {
	t.Helper()
	m, i, err := p.Lookup(name, inst)
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.Slot(b, order, m, i)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// valueOf reads a sample metric's value back.
func valueOf(t *testing.T, b []byte, order binary.ByteOrder, name string) mmv.Value {
	t.Helper()
	r, err := mmv.Parse(b, mmv.Options{Order: order})
	if err != nil {
		t.Fatal(err)
	}
	for v := range r.Values() {
		if string(r.Metric(v.Metric).Name) == name && v.Instance <= 0 {
			return v
		}
	}
	t.Fatalf("no value %s", name)
	return mmv.Value{}
}

// TestElapsed follows pmdammv's rule: while extra < 0 the value is
// value + now + extra (docs/pcp-mmv.md §7: 1000 with an open interval reads more).
func TestElapsed(t *testing.T) {
	p, _ := sampleRegistry(1, false).Plan()
	b := p.AppendFile(nil, nil)
	s := slotOf(t, p, b, nil, "elapsed", "")
	s.SetInt(1000)
	s.Start(5_000_000)
	v := valueOf(t, b, nil, "elapsed")
	if v.Extra() != -5_000_000 {
		t.Fatalf("extra %d", v.Extra())
	}
	if got := v.Elapsed(5_007_738); got != 8738 {
		t.Errorf("open interval: %d, want 8738", got)
	}
	s.Start(6_000_000) // already open: no effect
	s.Stop(5_010_000)
	if got, extra := v.Elapsed(9_999_999), v.Extra(); got != 11000 || extra != 0 {
		t.Errorf("closed: %d extra %d, want 11000 extra 0", got, extra)
	}
	s.Stop(6_000_000) // already closed: no effect
	if v.Int() != 11000 {
		t.Errorf("value %d", v.Int())
	}
}

func TestSlotsBothOrders(t *testing.T) {
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		p, _ := sampleRegistry(2, true).Plan()
		b := p.AppendFile(nil, order)
		slotOf(t, p, b, order, "i32", "").SetInt(-42)
		slotOf(t, p, b, order, "i32", "").Add(-8)
		slotOf(t, p, b, order, "u64", "green").Add(5)
		slotOf(t, p, b, order, "u64", "green").Add(-1)
		slotOf(t, p, b, order, "float", "").SetFloat(3.25)
		slotOf(t, p, b, order, "float", "").Add(1)
		slotOf(t, p, b, order, "double", "blue").SetInt(7)
		if err := slotOf(t, p, b, order, "string", "").SetString("a much longer first text"); err != nil {
			t.Fatal(err)
		}
		if err := slotOf(t, p, b, order, "string", "").SetString("short"); err != nil {
			t.Fatal(err)
		}
		r, err := mmv.Parse(b, mmv.Options{Order: order})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for v := range r.Values() {
			name := string(r.Metric(v.Metric).Name)
			if v.Instance >= 0 {
				name += "/" + string(r.Instance(v.Instance).Name)
			}
			got[name] = string(appendValueText(nil, v))
		}
		for k, want := range map[string]string{"i32": "-50", "u64/green": "4", "float": "4.25", "double/blue": "7", "string": "short"} {
			if got[k] != want {
				t.Errorf("%v: %s = %q, want %q", order, k, got[k], want)
			}
		}
	}
}

func appendValueText(b []byte, v mmv.Value) []byte {
	switch v.Type {
	case mmv.TypeString:
		return append(b, v.Text()...)
	case mmv.TypeFloat, mmv.TypeDouble:
		return append(b, ftoa(v.Float())...)
	}
	return append(b, itoa(int(v.Int()))...)
}

func ftoa(f float64) string {
	if f == math.Trunc(f) {
		return itoa(int(f))
	}
	return itoa(int(f)) + "." + itoa(int((f-math.Trunc(f))*100))
}

func TestSlotErrors(t *testing.T) {
	p, _ := sampleRegistry(1, false).Plan()
	b := p.AppendFile(nil, nil)
	if err := slotOf(t, p, b, nil, "string", "").SetString(strings.Repeat("s", 255)); !errors.Is(err, mmv.ErrTooLong) {
		t.Errorf("255-byte string: %v", err)
	}
	if err := slotOf(t, p, b, nil, "string", "").SetString(strings.Repeat("s", 254)); err != nil {
		t.Errorf("254-byte string: %v", err)
	}
	if err := slotOf(t, p, b, nil, "u32", "").SetString("x"); !errors.Is(err, mmv.ErrValueType) {
		t.Errorf("string on u32: %v", err)
	}
	if _, _, err := p.Lookup("u64", "purple"); !errors.Is(err, mmv.ErrNoSuchEntry) {
		t.Errorf("unknown instance: %v", err)
	}
	if _, err := p.Slot(b, nil, 0, 1); !errors.Is(err, mmv.ErrNoSuchEntry) {
		t.Errorf("instance of singular metric: %v", err)
	}
	if _, err := p.Slot(b[:10], nil, 0, 0); !errors.Is(err, mmv.ErrTruncated) {
		t.Errorf("short buffer: %v", err)
	}
}

// TestSentinel checks the "no value" patterns of FlagSentinel files.
func TestSentinel(t *testing.T) {
	reg := sampleRegistry(1, false)
	reg.Flags = mmv.FlagSentinel
	p, _ := reg.Plan()
	b := p.AppendFile(nil, nil)
	fillSample(p, b)
	r, _ := mmv.Parse(b, mmv.Options{})
	for v := range r.Values() {
		if v.Missing() {
			t.Errorf("%s missing before Clear", r.Metric(v.Metric).Name)
		}
	}
	for i, m := range reg.Metrics {
		n := 1
		if m.Indom != 0 {
			n = 3
		}
		for k := range n {
			s, _ := p.Slot(b, nil, i, k)
			s.Clear()
		}
	}
	for v := range r.Values() {
		if !v.Missing() {
			t.Errorf("%s not missing after Clear (raw %#x)", r.Metric(v.Metric).Name, v.Raw())
		}
	}
	// Without the flag nothing is missing, whatever the bits.
	reg.Flags = 0
	p, _ = reg.Plan()
	b = p.AppendFile(nil, nil)
	slotOf(t, p, b, nil, "i64", "").Clear()
	if valueOf(t, b, nil, "i64").Missing() {
		t.Error("missing without FlagSentinel")
	}
}

// TestStale checks that a reader notices a republished generation.
func TestStale(t *testing.T) {
	p, _ := sampleRegistry(1, false).Plan()
	b := p.AppendFile(nil, nil)
	r, _ := mmv.Parse(b, mmv.Options{})
	slotOf(t, p, b, nil, "u32", "").Add(3)
	if r.Stale() {
		t.Fatal("value update made the reader stale")
	}
	if v := valueOf(t, b, nil, "u32"); v.Uint() != 3 {
		t.Fatalf("live value %d", v.Uint())
	}
	if w, extra := r.Words(1); w != 3 || extra != 0 {
		t.Fatalf("Words(1) = %d, %d", w, extra)
	}
	mmv.Republish(b, nil, 99)
	if !r.Stale() {
		t.Fatal("republish not noticed")
	}
	if _, err := mmv.Parse(b, mmv.Options{}); err != nil {
		t.Fatal(err)
	}
}

// TestMutatedAfterValidation scribbles over a validated file, as a
// hostile or broken writer sharing the mapping could: every accessor
// and the dump must stay inside the bytes and never panic.
func TestMutatedAfterValidation(t *testing.T) {
	orig := readFile(t, "testdata/lab/sample3.mmv")
	seed := uint64(1)
	for round := range 200 {
		b := append([]byte(nil), orig...)
		r, err := mmv.Parse(b, mmv.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for range 1 + round%40 {
			seed = seed*6364136223846793005 + 1442695040888963407
			at := int(seed>>33) % len(b)
			b[at] ^= byte(seed >> 13)
		}
		_ = mmv.AppendDump(nil, &r, "x", 1)
		for m := range r.Metrics() {
			if d, ok := r.IndomOf(m); ok {
				for in := range r.Instances(d) {
					_ = in.Name
				}
			}
		}
		for v := range r.Values() {
			_, _, _, _ = v.Int(), v.Float(), v.Text(), v.Missing()
		}
		_, _ = mmv.Assign([]mmv.Source{{Name: "x", File: &r}})
	}
}
