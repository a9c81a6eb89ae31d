package abi

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// feedPDUs runs a PDU session over in, cut into pieces by next (which
// returns the next piece's length), and returns the PDUs and the error
// of the whole run as one PDUStream.
func feedPDUs(in []byte, next func() int) PDUStream {
	s := NewPDUSession(0)
	all := PDUStream{PDUs: []Raw{}}
	for off := 0; off < len(in); {
		n := min(next(), len(in)-off)
		r := s.Feed(in[off : off+n])
		all.PDUs = append(all.PDUs, r.PDUs...)
		all.Error = r.Error
		off += n
	}
	r := s.End()
	all.Error = r.Error
	return all
}

// TestPDUStreamChunking: every capture of ../testdata, whole, cut short
// and damaged, gives through a stream session fed 1 byte at a time, and
// in random pieces, exactly the result of one DecodePDUs call.
func TestPDUStreamChunking(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "conv*.*[rt].bin"))
	if len(files) != 6 {
		t.Fatalf("%d captures", len(files))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range files {
		whole, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		bad := bytes.Clone(whole)
		bad[len(bad)/2] ^= 0xff
		for _, in := range [][]byte{whole, whole[:len(whole)-3], whole[:len(whole)/2], bad} {
			whole := DecodePDUs(in, 0)
			want, _ := whole.MarshalMsg(nil)
			one := feedPDUs(in, func() int { return 1 })
			got1, _ := one.MarshalMsg(nil)
			rnd := feedPDUs(in, func() int { return 1 + rng.IntN(300) })
			gotR, _ := rnd.MarshalMsg(nil)
			if !bytes.Equal(got1, want) || !bytes.Equal(gotR, want) {
				t.Errorf("%s (%d bytes): chunked results differ from the whole (%d, %d PDUs; errors %+v, %+v)",
					filepath.Base(name), len(in), len(one.PDUs), len(rnd.PDUs), one.Error, rnd.Error)
			}
		}
	}
}
