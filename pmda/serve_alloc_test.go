package pmda

import (
	"context"
	"os"
	"testing"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// allocAgent has allocMetrics metrics cycling through the numeric types
// over one indom of allocInsts instances, and one singular U64 metric.
const (
	allocMetrics = 60
	allocInsts   = 40
)

var allocTypes = [...]pcp.Type{pcp.Type32, pcp.TypeU32, pcp.Type64, pcp.TypeU64, pcp.TypeFloat, pcp.TypeDouble}

func allocAgent(t *testing.T) *Agent {
	indom := pcp.NewInDom(0, 0)
	insts := make([]Instance, allocInsts)
	for i := range insts {
		insts[i] = Instance{ID: int32(10 * i), Name: "i" + string(rune('a'+i%26)) + string(rune('a'+i/26))}
	}
	o := Options{Domain: testDomain, Name: "alloc", InDoms: []InDom{{InDom: indom, Instances: insts}}, Logf: t.Logf}
	for i := range allocMetrics {
		o.Metrics = append(o.Metrics, Metric{Name: "alloc.m" + string(rune('a'+i%26)) + string(rune('a'+i/26)),
			PMID: pcp.NewID(0, 0, uint32(i)), Type: allocTypes[i%len(allocTypes)], Sem: pcp.SemInstant, InDom: indom})
	}
	o.Metrics = append(o.Metrics, Metric{Name: "alloc.one", PMID: pcp.NewID(0, 1, 0), Type: pcp.TypeU64, Sem: pcp.SemCounter, InDom: pcp.InDomNull})
	o.Fetch = func(_ context.Context, m *Metric, inst int32, v *Value) error {
		x := int64(m.PMID.Item())*1000 + int64(inst)
		switch m.Type {
		case pcp.TypeFloat, pcp.TypeDouble:
			v.SetFloat64(float64(x) / 4)
		case pcp.Type32, pcp.Type64:
			v.SetInt64(-x)
		default:
			v.SetUint64(uint64(x))
		}
		return nil
	}
	return mustNew(t, o)
}

// pipeServer serves a over two OS pipes, the way pmcd runs a pipe PMDA,
// and reads its replies with a pduwire.Reader.
type pipeServer struct {
	to   *os.File
	from *pduwire.Reader
	done chan error
}

func startPipeServer(t *testing.T, a *Agent) *pipeServer {
	t.Helper()
	r1, w1, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r2, w2, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &pipeServer{to: w1, from: pduwire.NewReader(r2, pduwire.Options{}), done: make(chan error, 1)}
	go func() {
		err := a.Serve(context.Background(), r1, w2)
		w2.Close()
		s.done <- err
	}()
	t.Cleanup(func() {
		w1.Close()
		if err := <-s.done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		r1.Close()
		r2.Close()
	})
	if !s.from.Next() || s.from.PDU().Header.Type != pduwire.TypeCreds {
		t.Fatalf("agent's first PDU is not CREDS: %v", s.from.Err())
	}
	s.write(t, (&pduwire.CredsPDU{Creds: []pduwire.Credential{pduwire.NewVersionCred(2, 0)}}).Append(nil, 1))
	return s
}

func (s *pipeServer) write(t *testing.T, b []byte) {
	if _, err := s.to.Write(b); err != nil {
		t.Fatalf("writing to the agent: %v", err)
	}
}

// exchange sends a request stream (PROFILEs, which get no answer, then
// one FETCH) and returns the reply to its last PDU.
func (s *pipeServer) exchange(t *testing.T, req []byte) pduwire.PDU {
	s.write(t, req)
	if !s.from.Next() {
		t.Fatalf("no reply from the agent: %v", s.from.Err())
	}
	return s.from.PDU()
}

// TestServeFetchAllocs runs whole requests through Serve, over OS pipes as
// pmcd does, and fails if any steady-state FETCH of numeric metrics
// allocates: singular and indom metrics, one pmID to more than there are
// metrics (repeats and an unknown one included), with and without a
// PROFILE before each FETCH, and with instance subsets included and
// excluded. The last case interleaves every shape, so a buffer sized for
// one shape and dropped for another shows too.
func TestServeFetchAllocs(t *testing.T) {
	a := allocAgent(t)
	s := startPipeServer(t, a)
	indom := pcp.NewInDom(testDomain, 0)
	ids := func(n int) []pcp.ID {
		out := make([]pcp.ID, n)
		for i := range out {
			out[i] = pcp.NewID(testDomain, 0, uint32(i%allocMetrics))
		}
		return out
	}
	one := pcp.NewID(testDomain, 1, 0)
	fetch := func(pmids ...pcp.ID) []byte { return (&pduwire.FetchPDU{Ctx: 3, PMIDs: pmids}).Append(nil, 3) }
	profile := func(state int32, entries ...pduwire.ProfileEntry) []byte {
		return (&pduwire.ProfilePDU{Ctx: 3, State: state, Entries: entries}).Append(nil, 3)
	}
	all := profile(pduwire.ProfileInclude)
	// A listed instance is an exception to its entry's state
	// (docs/pmda.md, Profiles).
	subset := profile(pduwire.ProfileExclude, pduwire.ProfileEntry{InDom: indom, State: pduwire.ProfileInclude, Insts: []int32{0, 30, 70, 390}})
	only := profile(pduwire.ProfileInclude, pduwire.ProfileEntry{InDom: indom, State: pduwire.ProfileExclude, Insts: []int32{10, 20, 999}})
	none := profile(pduwire.ProfileExclude)
	cases := []struct {
		name string
		req  []byte
		sets int // value sets in the RESULT
		vals int // values in all
	}{
		{"singular", fetch(one), 1, 1},
		{"1 pmID", fetch(ids(1)...), 1, allocInsts},
		{"7 pmIDs", fetch(ids(7)...), 7, 7 * allocInsts},
		{"all pmIDs and the singular one", fetch(append(ids(allocMetrics), one)...), allocMetrics + 1, allocMetrics*allocInsts + 1},
		{"repeats and an unknown pmID", fetch(append(ids(2*allocMetrics+5), pcp.NewID(testDomain, 9, 9))...), 2*allocMetrics + 6, (2*allocMetrics + 5) * allocInsts},
		{"PROFILE of every instance", append(all, fetch(ids(allocMetrics)...)...), allocMetrics, allocMetrics * allocInsts},
		{"PROFILE without four instances", append(subset, fetch(ids(allocMetrics)...)...), allocMetrics, allocMetrics * (allocInsts - 4)},
		{"PROFILE of two instances", append(only, fetch(append(ids(11), one)...)...), 12, 11*2 + 1},
		{"PROFILE of no instance", append(none, fetch(append(ids(5), one)...)...), 6, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			check := func(p pduwire.PDU) {
				r, err := pduwire.ParseResult(p.Bytes)
				if err != nil {
					t.Fatalf("reply: %v (% x)", err, p.Bytes[:min(len(p.Bytes), 32)])
				}
				sets, vals := 0, 0
				for vs := range r.ValueSets() {
					sets++
					vals += vs.Len()
				}
				if sets != c.sets || vals != c.vals {
					t.Fatalf("RESULT has %d value sets and %d values, want %d and %d", sets, vals, c.sets, c.vals)
				}
			}
			check(s.exchange(t, c.req))
			if n := testing.AllocsPerRun(100, func() { s.exchange(t, c.req) }); n != 0 {
				t.Errorf("%v allocations per request, want 0", n)
			}
			check(s.exchange(t, c.req))
		})
	}
	if t.Failed() {
		return
	}
	// Every shape in turn, the profile left by the last case first.
	n := testing.AllocsPerRun(50, func() {
		for _, c := range cases {
			s.exchange(t, c.req)
		}
	})
	if n != 0 {
		t.Errorf("%v allocations per round of %d requests of changing shapes, want 0", n, len(cases))
	}
}
