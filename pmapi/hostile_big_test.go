package pmapi

import (
	"bytes"
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// A 60 MiB RESULT (five 12 MiB aggregate blocks, under the 64 MiB default
// limit) arriving through TCP costs the client under twice its size in
// allocation with FetchBuf; reading it grew the buffer 64 KiB at a time
// before and cost 32.8 GB for a 64 MiB reply (issue 24).
func TestHostileHugeResult(t *testing.T) {
	block := bytes.Repeat([]byte{0xa5}, 12<<20)
	rd := pduwire.ResultData{Sec: 1700000000, Sets: []pduwire.ValueSetData{{
		PMID: pcp.NewID(29, 0, 6), ValFmt: uint8(pduwire.ValDPTR),
	}}}
	for i := range 5 {
		rd.Sets[0].Values = append(rd.Sets[0].Values, pduwire.ValueData{Inst: int32(i), BlockType: pcp.TypeAggregate, Payload: block})
	}
	reply := rd.Append(nil, 0)
	addr := fakePmcd(t, hello(t), func(conn *fakeConn) {
		readRequest(conn) // PROFILE
		readRequest(conn) // FETCH
		conn.Write(reply)
		time.Sleep(time.Second)
	})
	ctx := context.Background()
	c, err := Dial(ctx, addr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	r, err := c.FetchBuf(ctx, pcp.NewID(29, 0, 6))
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for vs := range r.ValueSets() {
		for v := range vs.Values() {
			if len(v.Payload()) != len(block) {
				t.Fatalf("value %d: %d bytes", v.Inst, len(v.Payload()))
			}
			n++
		}
	}
	if n != 5 {
		t.Fatalf("%d values", n)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("a %d-byte RESULT: %d bytes allocated (%.2fx) in %s", len(reply), alloc, float64(alloc)/float64(len(reply)), took)
	if alloc > 2*uint64(len(reply))+1<<20 {
		t.Errorf("a %d-byte RESULT allocated %d bytes", len(reply), alloc)
	}
}
