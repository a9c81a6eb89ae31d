package pmapi

import (
	"context"
	"net"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// countingPmcd answers every fetch with sample.long.ten = 1, 2, 3, ...
// until the client hangs up.
func countingPmcd(t *testing.T) string {
	return fakePmcd(t, hello(t), func(conn *fakeConn) {
		for n := uint32(1); ; {
			if !conn.r.Next() {
				return
			}
			p := conn.r.PDU()
			if p.Header.Type != pduwire.TypeHighResFetch && p.Header.Type != pduwire.TypeFetch {
				continue // PROFILE: no reply
			}
			if _, err := conn.Write(sampleResult(n)); err != nil {
				return
			}
			n++
		}
	})
}

// value returns the one value of a sampleResult.
func value(t *testing.T, r pduwire.Result) uint32 {
	t.Helper()
	for vs := range r.ValueSets() {
		return vs.Value(0).Word
	}
	t.Fatal("result without a value set")
	return 0
}

// TestFetchOwnsFetchBufViews shows the two lifetimes: a FetchBuf result
// is overwritten by the next call on the client, a Fetch result is not.
func TestFetchOwnsFetchBufViews(t *testing.T) {
	c, err := Dial(context.Background(), countingPmcd(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, id := context.Background(), pcp.NewID(29, 0, 10)
	view, err := c.FetchBuf(ctx, id)
	if err != nil || value(t, view) != 1 {
		t.Fatalf("first fetch: %v", err)
	}
	owned, err := c.Fetch(ctx, id)
	if err != nil || value(t, owned) != 2 {
		t.Fatalf("second fetch: %v", err)
	}
	if _, err := c.FetchBuf(ctx, id); err != nil {
		t.Fatal(err)
	}
	if v := value(t, view); v != 3 {
		t.Errorf("the first FetchBuf view reads %d after two more calls: it should alias the client's buffer (3)", v)
	}
	if v := value(t, owned); v != 2 {
		t.Errorf("the Fetch result changed to %d under a later call", v)
	}
}

// TestFetchShared: goroutines sharing one Client keep their Fetch results
// while the others fetch. Run with -race (scripts/test.sh does): with
// FetchBuf in place of Fetch, the race detector reports the client's
// reads into the buffer racing the other goroutines' reads of their
// views, and the values change under them.
func TestFetchShared(t *testing.T) {
	c, err := Dial(context.Background(), countingPmcd(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, id := context.Background(), pcp.NewID(29, 0, 10)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 8 {
		wg.Go(func() {
			for range 100 {
				r, err := c.Fetch(ctx, id)
				if err != nil {
					errs <- err.Error()
					return
				}
				v := value(t, r)
				runtime.Gosched() // let the others fetch
				if w := value(t, r); w != v {
					errs <- "a Fetch result changed under another goroutine's call"
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// recordedFetchPmcd plays pmcd from testdata/pmcd-fetch50.server.bin,
// pmcd 6.0.3's side of a conversation that looked up the 50 metrics of
// testdata/fetch-metrics.txt and fetched them: its greeting, then for
// each PMNS_NAMES, FETCH or HIGHRES_FETCH the recorded reply to it. It
// allocates nothing per request, so the client's allocations are all a
// count of the process's shows.
func recordedFetchPmcd(t testing.TB) (addr string, names []string) {
	t.Helper()
	rec, err := os.ReadFile("testdata/pmcd-fetch50.server.bin")
	if err != nil {
		t.Fatal(err)
	}
	answers := map[pduwire.Type]pduwire.Type{
		pduwire.TypePMNSIDs:       pduwire.TypePMNSNames,
		pduwire.TypeResult:        pduwire.TypeFetch,
		pduwire.TypeHighResResult: pduwire.TypeHighResFetch,
	}
	var greeting []byte
	replies := map[pduwire.Type][]byte{}
	for p, err := range pduwire.All(rec, pduwire.Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		if greeting == nil {
			greeting = p.Bytes
		} else {
			replies[answers[p.Header.Type]] = p.Bytes
		}
	}
	if len(replies) != 3 {
		t.Fatalf("recording has replies to %d request types, want 3", len(replies))
	}
	list, err := os.ReadFile("testdata/fetch-metrics.txt")
	if err != nil {
		t.Fatal(err)
	}
	addr = serveOne(t, func(conn net.Conn) {
		conn.Write(greeting)
		r := pduwire.NewReader(conn, pduwire.Options{MaxPDULen: pduwire.ServerMaxPDULen})
		for r.Next() {
			if reply := replies[r.PDU().Header.Type]; reply != nil { // CREDS, PROFILE: none
				if _, err := conn.Write(reply); err != nil {
					return
				}
			}
		}
	})
	return addr, strings.Fields(string(list))
}

// TestFetchBufAllocs: a FetchBuf loop of the benchmark's 50-metric fetch
// allocates nothing per fetch, with either kind of I/O, against a pmcd
// that replays pmcd's recorded replies (TestConformanceFetchAllocs checks
// the same against the real pmcd).
func TestFetchBufAllocs(t *testing.T) {
	for _, mode := range ioModes {
		t.Run(mode.name, func(t *testing.T) {
			addr, names := recordedFetchPmcd(t)
			ctx := context.Background()
			c, err := Dial(ctx, addr, mode.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			ids, err := c.LookupName(ctx, names...)
			if err != nil {
				t.Fatal(err)
			}
			var sets int
			fetch := func() {
				r, err := c.FetchBuf(ctx, ids...)
				if err != nil {
					t.Fatal(err)
				}
				sets = 0
				for s := r.Scan(); s.Next(); {
					sets++
				}
			}
			fetch() // profile, buffers
			if n := testing.AllocsPerRun(200, fetch); n != 0 {
				t.Errorf("%v allocations per FetchBuf", n)
			}
			if sets != len(names) {
				t.Errorf("%d value sets read, want %d", sets, len(names))
			}
		})
	}
}

// BenchmarkFetchBuf is the bench module's fetch-client loop in process:
// the 50-metric fetch against the recorded pmcd, in each I/O mode. The
// fake pmcd shares the process, so the time is the client's and the
// fake's together; bench/ measures the client alone.
func BenchmarkFetchBuf(b *testing.B) {
	for _, mode := range ioModes {
		b.Run(mode.name, func(b *testing.B) {
			addr, names := recordedFetchPmcd(b)
			ctx := context.Background()
			c, err := Dial(ctx, addr, mode.opts)
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			ids, err := c.LookupName(ctx, names...)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.FetchBuf(ctx, ids...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
