package pmda

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"github.com/perfwire/perfwire/pduwire"
)

func readCapture(t testing.TB) []byte {
	b, err := os.ReadFile("testdata/pmcd-to-simple.pdu")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzServe feeds the request loop a stream from pmcd: it must return
// (no hang), never panic, and write only whole PDUs that frame.
func FuzzServe(f *testing.F) {
	capture := readCapture(f)
	f.Add(capture)
	creds := capture[:20]
	for p, err := range pduwire.All(capture, pduwire.Options{}) {
		if err != nil {
			f.Fatal(err)
		}
		if p.Offset > 0 {
			f.Add(append(append([]byte(nil), creds...), p.Bytes...))
		}
	}
	a := testAgent(f, func(o *Options) {
		o.Logf = func(string, ...any) {}
		o.Limits.MaxPDULen = 1 << 16
	})
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		done := make(chan struct{})
		go func() {
			a.Serve(context.Background(), bytes.NewReader(in), &out)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("Serve did not return")
		}
		for _, err := range pduwire.All(out.Bytes(), pduwire.Options{}) {
			if err != nil {
				t.Fatalf("agent output does not frame: %v", err)
			}
		}
	})
}
