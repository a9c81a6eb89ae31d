package render

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/schema"
)

// feedPDUs runs a PDU session over in, cut into pieces by next (which
// returns the next piece's length), and returns the PDUs and the error
// of the whole run as one PDUStream.
func feedPDUs(in []byte, next func() int) schema.PDUStream {
	s := NewPDUSession(0)
	all := schema.PDUStream{PDUs: []schema.Raw{}}
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
	files, _ := filepath.Glob(filepath.Join("testdata", "conv*.*[rt].bin"))
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

// TestAppendPDUs: pdu_decode's in-place writer gives DecodePDUs's bytes
// after whatever dst holds, for every capture whole, cut short (an
// error after the PDUs) and damaged, with any number of PDUs (the array
// header's three sizes) and through the module's call.
func TestAppendPDUs(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "conv*.*[rt].bin"))
	var all []byte
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	// Over 65535 PDUs: the widest array header.
	var many []byte
	for len(many) < 70000*16 {
		many = append(many, "\x00\x00\x00\x10\x00\x00\x70\x0b\x00\x00\x00\x00\x00\x00\x00\x01"...)
	}
	ins := [][]byte{nil, {1, 2}, all[:12], many}
	for _, in := range [][]byte{all, all[:len(all)/3]} {
		bad := bytes.Clone(in)
		bad[len(bad)/2] ^= 0xff
		ins = append(ins, in, in[:len(in)-3], bad)
	}
	for i, in := range ins {
		r := DecodePDUs(in, 0)
		want, _ := r.MarshalMsg([]byte("prefix"))
		got := AppendPDUs([]byte("prefix"), in, 0)
		if !bytes.Equal(got, want) {
			t.Errorf("input %d (%d bytes, %d PDUs, error %v): AppendPDUs differs from DecodePDUs", i, len(in), len(r.PDUs), r.Error)
		}
	}
}

// BenchmarkAppendFeedStream feeds the RESULTs of pduwire's captures and
// libpcp's 1,000-value RESULTs, repeated to 1 MiB, in 64 KB pieces (the
// viewer's) to one session per pass: bench's plugin-stream, natively.
func BenchmarkAppendFeedStream(b *testing.B) {
	files, _ := filepath.Glob("../pduwire/testdata/captures/conv*.server.bin")
	files = append(files, "../bench/testdata/result-1000.bin", "../bench/testdata/result-1000-highres.bin")
	var pat []byte
	for _, f := range files {
		in, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		for p, err := range pduwire.All(in, pduwire.Options{}) {
			if err != nil {
				b.Fatal(err)
			}
			if t := p.Header.Type; t == pduwire.TypeResult || t == pduwire.TypeHighResResult {
				pat = append(pat, p.Bytes...)
			}
		}
	}
	var in []byte
	for len(in) < 1<<20 {
		in = append(in, pat...)
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	var out []byte
	for b.Loop() {
		s := NewPDUSession(0)
		for off := 0; off < len(in); off += 64 << 10 {
			out = s.AppendFeed(out[:0], in[off:min(off+64<<10, len(in))])
		}
		out = s.AppendEnd(out[:0])
	}
}
