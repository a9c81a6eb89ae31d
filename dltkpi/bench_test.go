package dltkpi

import (
	"testing"
)

// act50 builds the payload of one ACT message with 50 real datasets from
// kpi-odd (the capture's ACT groups, in order, repeated as needed),
// packed as dlt-kpi does with a buffer large enough for all of them.
func act50(tb testing.TB) []byte {
	var ds [][]byte
	for _, cm := range readCapture(tb, "kpi-odd") {
		if !cm.isKPI() {
			continue
		}
		m, _ := Parse(cm.payload)
		if m.Kind != KindACT || m.Sync != SyncNone {
			continue
		}
		for d := range m.All() {
			ds = append(ds, d.Raw)
		}
	}
	b := NewPayloadBuilder(nil, KindACT, 65535)
	for i := range 50 {
		if !b.Add(ds[i%len(ds)]) {
			tb.Fatal("50 datasets do not fit")
		}
	}
	return b.Payload()
}

// sumACT parses an ACT payload and reads every field of every dataset.
func sumACT(p []byte) (uint64, error) {
	m, err := Parse(p)
	if err != nil {
		return 0, err
	}
	var sum uint64
	s := m.Scanner()
	for s.Next() {
		d, err := s.Dataset()
		if err != nil {
			return 0, err
		}
		sum += uint64(d.PID) + d.CPU + uint64(d.RSS) + uint64(d.Ctx) + d.IO + d.IOWait
	}
	return sum, nil
}

func TestParseAllocs(t *testing.T) {
	p := act50(t)
	irq := payload("IRQ", "24;cpu0:1;cpu1:0;", "LOC;cpu0:350458;cpu1:343627;", "ERR;cpu0:0;")
	n := testing.AllocsPerRun(100, func() {
		if _, err := sumACT(p); err != nil {
			t.Fatal(err)
		}
		m, _ := Parse(irq)
		for d := range m.All() {
			for c := range d.Counts() {
				_ = c
			}
		}
	})
	if n != 0 {
		t.Errorf("%v allocations per parse, want 0", n)
	}
}

// TestReassemblerAllocs: once warmed up, pushing a capture's messages
// through the reassembler allocates nothing.
func TestReassemblerAllocs(t *testing.T) {
	var msgs []capMsg
	for _, cm := range readCapture(t, "kpi-odd") {
		if cm.isKPI() {
			msgs = append(msgs, cm)
		}
	}
	r := NewReassembler(Options{})
	run := func() {
		for _, cm := range msgs {
			r.PushPayload(cm.source(), cm.payload, nil)
			for r.Next() {
				_ = r.Event()
			}
		}
	}
	run()
	if n := testing.AllocsPerRun(5, run); n != 0 {
		t.Errorf("%v allocations per capture replay, want 0", n)
	}
}

// BenchmarkParseACT50 parses one ACT message of 50 real datasets and
// decodes every field (target ≥ 1 GB/s, 0 allocs/op).
func BenchmarkParseACT50(b *testing.B) {
	p := act50(b)
	b.SetBytes(int64(len(p)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sumACT(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReassembleCapture pushes every KPI message of kpi-odd through
// the reassembler (parsing included).
func BenchmarkReassembleCapture(b *testing.B) {
	var msgs []capMsg
	size := 0
	for _, cm := range readCapture(b, "kpi-odd") {
		if cm.isKPI() {
			msgs = append(msgs, cm)
			size += len(cm.payload)
		}
	}
	r := NewReassembler(Options{})
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, cm := range msgs {
			r.PushPayload(cm.source(), cm.payload, nil)
			for r.Next() {
				_ = r.Event()
			}
		}
	}
}
