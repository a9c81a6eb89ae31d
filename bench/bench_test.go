package main

import (
	"os"
	"testing"

	"github.com/perfwire/perfwire/pduwire"
)

// The Go halves of the figures as ordinary benchmarks, for profiling
// (go test -run '^$' -bench . -cpuprofile cpu.out).

func BenchmarkDecodeExtract(b *testing.B) {
	pdu := result1000(b)
	for b.Loop() {
		decodeExtract(pdu)
	}
}

func BenchmarkParseResultOnly(b *testing.B) {
	pdu := result1000(b)
	for b.Loop() {
		if _, err := pduwire.ParseResult(pdu); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeReader(b *testing.B) {
	pdu := result1000(b)
	for b.Loop() {
		decodeReader(pdu)
	}
}

// result1000 reads testdata/result-1000.bin, the figures' RESULT, for a
// benchmark that counts its bytes and allocations.
func result1000(b *testing.B) []byte {
	b.Helper()
	pdu, err := os.ReadFile("testdata/result-1000.bin")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(pdu)))
	b.ReportAllocs()
	return pdu
}
