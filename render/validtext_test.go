package render

import (
	"math/rand/v2"
	"testing"
)

// validText replaces each byte that is not UTF-8 as the []rune
// conversion does, which it replaced to keep the rune conversions out of
// wasm builds.
func TestValidTextAsRunes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte{'a', 0, 0x7f, 0x80, 0xbf, 0xc2, 0xe2, 0x82, 0xac, 0xed, 0xa0, 0xf0, 0x9f, 0x98, 0x80, 0xf4, 0x90, 0xff}
	for range 50000 {
		b := make([]byte, r.IntN(10))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		if got, want := validText(b), string([]rune(string(b))); got != want {
			t.Fatalf("validText(%q) = %q, want %q", b, got, want)
		}
	}
}
