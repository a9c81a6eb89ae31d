package pmapi

import (
	"context"
	"runtime"
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
