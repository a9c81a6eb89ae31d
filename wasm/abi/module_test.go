//go:build !kpi && !pcp && !mmv && !dlt && !archive

package abi

import (
	"bytes"
	"os"
	"testing"

	"github.com/perfwire/perfwire/render"
)

// TestModuleRecycles: buffers a host frees come back from alloc zeroed
// and as results, so that a stream fed call after call allocates
// neither; a buffer a session keeps (kpi_open's input) and one the
// caller handed over (Keep) never come back. It runs PDU and KPI calls:
// the all-formats build.
func TestModuleRecycles(t *testing.T) {
	in, err := os.ReadFile("../testdata/conv05.server.bin")
	if err != nil {
		t.Fatal(err)
	}
	kpi, err := os.ReadFile("../testdata/kpi-odd.dlt")
	if err != nil {
		t.Fatal(err)
	}
	m := NewModule()
	s := m.Open(OpPDUStream, 0, 0)
	ns := render.NewPDUSession(0)
	for off := 0; off < len(in); off += 100 {
		piece := in[off:min(off+100, len(in))]
		h := put(m, piece)
		r := m.CallKeep(OpPDUFeed, s, h)
		m.Free(h)
		got, _ := m.Buffer(r)
		if want := ns.AppendFeed(nil, piece); !bytes.Equal(got, want) {
			t.Fatalf("piece at %d: the result differs from the native call's", off)
		}
		m.Free(r)
		if h = m.Alloc(64); true {
			b, _ := m.Buffer(h)
			if !bytes.Equal(b, make([]byte, 64)) {
				t.Fatalf("alloc after free: %x, want zeros", b)
			}
			m.Free(h)
		}
	}
	if allocs := testing.AllocsPerRun(100, func() {
		h := put(m, in[152:152+312])
		m.Free(m.CallKeep(OpPDUFeed, s, h))
		m.Free(h)
	}); allocs > 1 {
		t.Errorf("%.0f allocations per pdu_feed of one PDU, want at most 1 (the call's result value)", allocs)
	}
	// An input larger than its result (an MMV file: 5.7 KB in, 1.6 KB
	// out) takes the larger spare; the result must still get the other.
	mmvIn, err := os.ReadFile("../testdata/sample2.mmv")
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		h := put(m, mmvIn)
		m.Free(m.CallKeep(OpMMVRead, h, 0))
		m.Free(h)
	}
	if allocs := testing.AllocsPerRun(100, func() {
		h := put(m, mmvIn)
		m.Free(m.CallKeep(OpMMVRead, h, 0))
		m.Free(h)
	}); allocs > 1 {
		t.Errorf("%.0f allocations per mmv_read of sample2.mmv, want at most 1", allocs)
	}

	// kpi_open keeps its input: freed, it is not reused.
	h := put(m, kpi)
	b, _ := m.Buffer(h)
	ks := m.Open(OpKPIOpen, h, 0)
	m.Free(h)
	for range 8 {
		x := m.Alloc(uint32(len(kpi)))
		if c, _ := m.Buffer(x); &c[0] == &b[0] {
			t.Fatal("kpi_open's input came back from alloc")
		}
	}
	if !bytes.Equal(b, kpi) {
		t.Fatal("kpi_open's input changed")
	}
	m.Free(ks)
	// Nor does a buffer handed over with Keep.
	mine := bytes.Clone(kpi)
	m.Free(m.Keep(mine))
	for range 8 {
		x := m.Alloc(uint32(len(kpi)))
		if c, _ := m.Buffer(x); &c[0] == &mine[0] {
			t.Fatal("a Keep buffer came back from alloc")
		}
	}
}

// BenchmarkModuleFeedOne is one pdu_feed of bench's plugin-feed PDU as
// the exports run it (alloc, write, call, free both), natively.
func BenchmarkModuleFeedOne(b *testing.B) {
	in, err := os.ReadFile("../testdata/conv05.server.bin")
	if err != nil {
		b.Fatal(err)
	}
	pdu := in[152 : 152+312]
	m := NewModule()
	s := m.Open(OpPDUStream, 0, 0)
	b.SetBytes(int64(len(pdu)))
	b.ReportAllocs()
	for b.Loop() {
		h := put(m, pdu)
		m.Free(m.CallKeep(OpPDUFeed, s, h))
		m.Free(h)
	}
}
