package pmda

import (
	"context"
	"errors"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/perfwire/perfwire/pduwire"
)

// TestServeListener plays pmcd connecting to a PMDA on a unix socket
// twice (as after a pmcd restart), then cancels the agent.
func TestServeListener(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "pmda.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	a := testAgent(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.ServeListener(ctx, ln) }()
	for round := range 2 {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(10 * time.Second))
		rd := pduwire.NewReader(c, pduwire.Options{})
		var creds pduwire.CredsPDU
		if !rd.Next() || creds.UnmarshalBinary(rd.PDU().Bytes) != nil {
			t.Fatalf("round %d: no CREDS: %v", round, rd.Err())
		}
		c.Write((&pduwire.CredsPDU{Creds: []pduwire.Credential{pduwire.NewVersionCred(2, 0)}}).Append(nil, 1))
		c.Write((&pduwire.DescReqPDU{PMID: idColour}).Append(nil, 0))
		var d pduwire.DescPDU
		if !rd.Next() || d.UnmarshalBinary(rd.PDU().Bytes) != nil || d.Desc.InDom != colours {
			t.Fatalf("round %d: DESC %+v %v", round, d, rd.Err())
		}
		c.Close()
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("ServeListener returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeListener did not return after cancel")
	}
}
