//go:build conformance

package pmapi

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfwire/perfwire/pcp"
)

// fetchList resolves the 50 sample metrics of the shared benchmark list.
func fetchList(tb testing.TB, c *Client) []pcp.ID {
	b, err := os.ReadFile("testdata/fetch-metrics.txt")
	if err != nil {
		tb.Fatal(err)
	}
	var names []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			names = append(names, l)
		}
	}
	ids, err := c.LookupName(context.Background(), names...)
	if err != nil {
		tb.Fatal(err)
	}
	if len(ids) != 50 {
		tb.Fatalf("fetch list has %d metrics, want 50", len(ids))
	}
	return ids
}

// TestConformanceSoak runs 100,000 fetches of 50 metrics over one
// connection: no error, every value set present, and memory flat.
func TestConformanceSoak(t *testing.T) {
	c := dial(t)
	ids := fetchList(t, c)
	ctx := context.Background()
	const n = 100_000
	var before, after runtime.MemStats
	var values int
	start := time.Now()
	for i := range n {
		r, err := c.FetchBuf(ctx, ids...)
		if err != nil {
			t.Fatalf("fetch %d: %v", i, err)
		}
		if r.NumPMID != len(ids) {
			t.Fatalf("fetch %d: %d value sets", i, r.NumPMID)
		}
		if i == 1000 { // past warm-up: buffers have reached their size
			runtime.GC()
			runtime.ReadMemStats(&before)
		}
		if i == n-1 {
			for vs := range r.ValueSets() {
				values += vs.Len()
			}
		}
	}
	elapsed := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	perFetch := float64(after.TotalAlloc-before.TotalAlloc) / float64(n-1000)
	t.Logf("%d fetches of %d metrics (%d values) in %v: %.0f fetches/s, %.1f bytes allocated per fetch, heap %d -> %d",
		n, len(ids), values, elapsed, float64(n)/elapsed.Seconds(), perFetch, before.HeapAlloc, after.HeapAlloc)
	if perFetch > 64 {
		t.Errorf("%.1f bytes allocated per fetch; the loop should not allocate", perFetch)
	}
	if after.HeapAlloc > before.HeapAlloc+1<<20 {
		t.Errorf("heap grew from %d to %d bytes", before.HeapAlloc, after.HeapAlloc)
	}
}

// TestConformanceUnixSocket talks to pmcd over its local socket.
func TestConformanceUnixSocket(t *testing.T) {
	c, err := Dial(context.Background(), "local:", Options{})
	if err != nil {
		t.Fatalf("Dial(local:): %v", err)
	}
	defer c.Close()
	ids, err := c.LookupName(context.Background(), "sample.long.hundred")
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Fetch(context.Background(), ids...)
	if err != nil {
		t.Fatal(err)
	}
	for vs := range r.ValueSets() {
		if vs.Len() != 1 || vs.Value(0).Word != 100 {
			t.Errorf("sample.long.hundred over the unix socket: %+v", vs)
		}
	}
}

// BenchmarkConformanceFetch50 is one fetch of the 50-metric list from the
// live pmcd.
func BenchmarkConformanceFetch50(b *testing.B) {
	c, err := Dial(context.Background(), DefaultAddr, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	ids := fetchList(b, c)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.FetchBuf(ctx, ids...); err != nil {
			b.Fatal(err)
		}
	}
}

// TestConformanceConcurrent shares one Client between goroutines: each
// result from Fetch must stay intact while the others keep fetching.
func TestConformanceConcurrent(t *testing.T) {
	c := dial(t)
	ctx := context.Background()
	ids, err := c.LookupName(ctx, "sample.long.one", "sample.long.hundred", "sample.string.hullo")
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			for i := range 200 {
				r, err := c.Fetch(ctx, ids...)
				if err != nil {
					errs <- err
					return
				}
				if g%2 == 0 { // interleave other requests
					if _, err := c.LookupDesc(ctx, ids[i%3]); err != nil {
						errs <- err
						return
					}
				}
				var got []string
				for vs := range r.ValueSets() {
					v := vs.Value(0)
					if v.Block() {
						got = append(got, string(v.Payload()))
					} else {
						got = append(got, strconv.Itoa(int(v.Word)))
					}
				}
				if len(got) != 3 || got[0] != "1" || got[1] != "100" || got[2] != "hullo world!\x00" {
					errs <- fmt.Errorf("goroutine %d fetch %d: %q", g, i, got)
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
