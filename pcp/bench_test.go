package pcp

import (
	"os"
	"testing"
)

// captureValues returns every numeric value pmcd sent in capture conv17
// (mmv metrics of all numeric types, insitu and in blocks) with its type.
func captureValues(b *testing.B) (raws []Raw, types []Type) {
	bin, err := os.ReadFile("testdata/captures/conv17.server.bin")
	if err != nil {
		b.Fatal(err)
	}
	vals := resultValues(b, bin)
	for _, d := range descsOf(b, bin) {
		if d.Type.Size() == 0 {
			continue
		}
		for _, r := range vals[d.ID] {
			raws = append(raws, r)
			types = append(types, d.Type)
		}
	}
	if len(raws) < 10 {
		b.Fatalf("only %d values", len(raws))
	}
	return raws, types
}

func BenchmarkExtractToDouble(b *testing.B) {
	raws, types := captureValues(b)
	b.ReportAllocs()
	b.SetBytes(int64(4 * len(raws)))
	for b.Loop() {
		for i, r := range raws {
			if _, err := Extract(r, types[i], TypeDouble); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkConvScale(b *testing.B) {
	in := NewUnits(1, -1, 0, SpaceByte, TimeSec, 0)
	out := NewUnits(1, -1, 0, SpaceMByte, TimeMin, 0)
	a := AtomUint64(1 << 40)
	b.ReportAllocs()
	b.SetBytes(8)
	for b.Loop() {
		if _, err := ConvScale(a, in, out); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnitsAppendText formats every Units word of the captures'
// descriptors.
func BenchmarkUnitsAppendText(b *testing.B) {
	words := []Units{0x00100000, 0x01003000, 0x01001000, 0x10000000, 0x10010000, 0x00000000, 0x1f023000}
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	b.SetBytes(int64(4 * len(words)))
	for b.Loop() {
		for _, u := range words {
			buf, _ = u.AppendText(buf[:0])
		}
	}
}

func BenchmarkCodeMessage(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = ErrPMDANotReady.Message() // the table's last-but-one entry
	}
}
