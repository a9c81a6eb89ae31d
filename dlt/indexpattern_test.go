package dlt

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// indexPattern finds a framing pattern where bytes.Index, which it
// replaced to keep bytes.Index out of wasm builds, does.
func TestIndexPatternAsIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, pat := range [][]byte{[]byte("DLT\x01"), []byte("DLS\x01"), []byte("D")} {
		for range 20000 {
			b := make([]byte, r.IntN(12))
			for i := range b {
				b[i] = "DLTS\x01x"[r.IntN(6)]
			}
			if got, want := indexPattern(b, pat), bytes.Index(b, pat); got != want {
				t.Fatalf("indexPattern(%q, %q) = %d, want %d", b, pat, got, want)
			}
		}
	}
}
