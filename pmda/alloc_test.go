package pmda

import (
	"context"
	"testing"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// TestFetchAllocs checks the fetch path (decode the FETCH, run the
// callbacks, encode the RESULT) allocates nothing for numeric metrics once
// its buffers have grown.
func TestFetchAllocs(t *testing.T) {
	a := testAgent(t, nil)
	w := a.newWorker(context.Background())
	w.in = (&pduwire.ProfilePDU{}).Append(nil, 0)
	w.do()
	req := (&pduwire.FetchPDU{PMIDs: []pcp.ID{idCount, idColour, idTime, idColour}}).Append(nil, 0)
	w.in = req
	w.do()
	if n := testing.AllocsPerRun(200, func() {
		w.in = req
		w.do()
	}); n != 0 {
		t.Errorf("%v allocations per fetch, want 0", n)
	}
	if _, err := pduwire.ParseResult(w.out); err != nil {
		t.Fatalf("RESULT: %v", err)
	}
}
