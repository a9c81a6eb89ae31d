package pmda

import (
	"context"
	"testing"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// benchAgent has nm U64 counters over one indom of ni instances, the shape
// of the bench figure (100 × 100).
func benchAgent(b *testing.B, nm, ni int) (*Agent, []byte) {
	insts := make([]Instance, ni)
	for i := range insts {
		insts[i] = Instance{ID: int32(i), Name: "i" + string(rune('a'+i%26)) + string(rune('0'+i/26%10)) + string(rune('0'+i/260))}
	}
	o := Options{Domain: 200, Name: "bench", InDoms: []InDom{{InDom: pcp.NewInDom(0, 0), Instances: insts}}, Logf: func(string, ...any) {}}
	ids := make([]pcp.ID, nm)
	for i := range nm {
		ids[i] = pcp.NewID(200, 0, uint32(i))
		o.Metrics = append(o.Metrics, Metric{Name: "bench.m" + string(rune('a'+i%26)) + string(rune('a'+i/26)), PMID: pcp.NewID(0, 0, uint32(i)), Type: pcp.TypeU64, Sem: pcp.SemCounter, InDom: pcp.NewInDom(0, 0)})
	}
	o.Fetch = func(ctx context.Context, m *Metric, inst int32, v *Value) error {
		v.SetUint64(uint64(m.PMID.Item())*1000 + uint64(inst))
		return nil
	}
	return mustNew(b, o), (&pduwire.FetchPDU{PMIDs: ids}).Append(nil, 0)
}

func benchFetch(b *testing.B, nm, ni int) {
	a, req := benchAgent(b, nm, ni)
	w := a.newWorker(context.Background())
	w.in = req
	w.do()
	if _, err := pduwire.ParseResult(w.out); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(w.out)))
	b.ReportAllocs()
	for b.Loop() {
		w.in = req
		w.do()
	}
}

// BenchmarkFetch100x100 answers one FETCH of 100 U64 metrics × 100
// instances: decode, 10⁴ callbacks, RESULT encode (bytes/s of RESULT).
func BenchmarkFetch100x100(b *testing.B) { benchFetch(b, 100, 100) }

// BenchmarkFetch1 answers a FETCH of one singular-shaped metric.
func BenchmarkFetch1(b *testing.B) { benchFetch(b, 1, 1) }

// BenchmarkServeLoop measures the whole request loop over a stream of
// FETCHes: framing, the hand-off to the worker, the reply write.
func BenchmarkServeLoop(b *testing.B) {
	a, req := benchAgent(b, 10, 10)
	creds := (&pduwire.CredsPDU{Creds: []pduwire.Credential{pduwire.NewVersionCred(2, 0)}}).Append(nil, 1)
	const n = 1000
	in := append([]byte(nil), creds...)
	for range n {
		in = append(in, req...)
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if err := a.Serve(context.Background(), &byteReader{b: in}, discard{}); err != nil {
			b.Fatal(err)
		}
	}
}

type byteReader struct{ b []byte }

func (r *byteReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, errEOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
