package render

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfwire/perfwire/dlt"
)

// TestAppendKPIMessages checks kpi_decode's in-place writer against the
// KPIMessages decodeKPIRef builds, marshalled, byte for byte: on each
// capture whole, cut short (the scanner's error), with limits, in serial
// framing, and damaged (malformed datasets, bytes that are not UTF-8,
// resynchronisation), after bytes already in the buffer.
func TestAppendKPIMessages(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.dlt"))
	if len(files) != 3 {
		t.Fatalf("%d DLT captures", len(files))
	}
	for _, name := range files {
		in, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		serial, damaged := serialOf(in), damage(in)
		for _, c := range []struct {
			what    string
			in      []byte
			framing dlt.Framing
		}{
			{"whole", in, dlt.FramingStorage},
			{"cut", in[:len(in)*2/3], dlt.FramingStorage},
			{"serial", serial, dlt.FramingSerial},
			{"damaged", damaged, dlt.FramingStorage},
			{"damaged serial", damaged, dlt.FramingSerial},
		} {
			for _, max := range []int{0, 1, 5, 40, 1 << 20} {
				r := decodeKPIRef(c.in, max, c.framing)
				want, err := r.MarshalMsg([]byte("head"))
				if err != nil {
					t.Fatal(err)
				}
				if got := AppendKPIMessages([]byte("head"), c.in, max, c.framing); !bytes.Equal(got, want) {
					t.Errorf("%s %s max %d: %d bytes, want %d (%d messages, error %v)", filepath.Base(name), c.what, max, len(got), len(want), len(r.Messages), r.Error)
				}
			}
		}
	}
}

// serialOf is the .dlt capture in in the serial framing: each message
// after "DLS" 01 instead of its storage header.
func serialOf(in []byte) []byte {
	var serial []byte
	s := dlt.NewScanner(in, dlt.Options{})
	for s.Next() {
		serial = append(dlt.AppendSerialHeader(serial), s.Message().Bytes()[dlt.StorageHeaderLen:]...)
	}
	return serial
}

// damage is a copy of b with every 997th byte from the 100th flipped:
// digits, separators, lengths and headers.
func damage(b []byte) []byte {
	b = bytes.Clone(b)
	for i := 100; i < len(b); i += 997 {
		b[i] ^= 0xa5
	}
	return b
}
