package pmda

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// fakePMCD plays pmcd's side of the exchange over pipes.
type fakePMCD struct {
	t     *testing.T
	a     *Agent
	to    *io.PipeWriter
	from  *pduwire.Reader
	done  chan error
	creds pduwire.CredsPDU
}

// startAgent serves a on pipes and completes the start-up exchange.
func startAgent(t *testing.T, a *Agent) *fakePMCD {
	t.Helper()
	r1, w1 := io.Pipe()
	r2, w2 := io.Pipe()
	f := &fakePMCD{t: t, a: a, to: w1, from: pduwire.NewReader(r2, pduwire.Options{}), done: make(chan error, 1)}
	go func() {
		err := a.Serve(context.Background(), r1, w2)
		w2.Close()
		f.done <- err
	}()
	p := f.recv()
	if err := f.creds.UnmarshalBinary(p); err != nil {
		t.Fatalf("agent's first PDU is not CREDS: %v (% x)", err, p)
	}
	reply := pduwire.CredsPDU{Creds: []pduwire.Credential{pduwire.NewVersionCred(2, 0)}}
	f.sendRaw(reply.Append(nil, 1))
	t.Cleanup(func() { f.close() })
	return f
}

func (f *fakePMCD) sendRaw(b []byte) {
	f.t.Helper()
	if _, err := f.to.Write(b); err != nil {
		f.t.Fatalf("writing to agent: %v", err)
	}
}

func (f *fakePMCD) send(m pduwire.Message, from int32) { f.sendRaw(m.Append(nil, from)) }

// recv returns a copy of the agent's next PDU, failing after 10 s.
func (f *fakePMCD) recv() []byte {
	f.t.Helper()
	got := make(chan []byte, 1)
	go func() {
		if f.from.Next() {
			got <- append([]byte(nil), f.from.PDU().Bytes...)
			return
		}
		got <- nil
	}()
	select {
	case b := <-got:
		if b == nil {
			f.t.Fatalf("agent closed the stream: %v", f.from.Err())
		}
		return b
	case <-time.After(10 * time.Second):
		f.t.Fatal("no reply from the agent within 10 s")
	}
	return nil
}

// recvError returns the code of an ERROR reply, failing for anything else.
func (f *fakePMCD) recvError() pcp.Code {
	f.t.Helper()
	b := f.recv()
	var e pduwire.ErrorPDU
	if err := e.UnmarshalBinary(b); err != nil {
		f.t.Fatalf("want ERROR, got % x: %v", b, err)
	}
	return pcp.Code(e.Code)
}

func (f *fakePMCD) recvInto(m pduwire.Message) {
	f.t.Helper()
	b := f.recv()
	if err := m.UnmarshalBinary(b); err != nil {
		var e pduwire.ErrorPDU
		if e.UnmarshalBinary(b) == nil {
			f.t.Fatalf("want %s, got ERROR %v", m.Type(), pcp.Code(e.Code))
		}
		f.t.Fatalf("want %s: %v (% x)", m.Type(), err, b)
	}
}

// close ends the stream as pmcd does and waits for Serve.
func (f *fakePMCD) close() error {
	f.to.Close()
	select {
	case err := <-f.done:
		f.done <- err
		return err
	case <-time.After(10 * time.Second):
		f.t.Fatal("Serve did not return 10 s after pmcd closed the stream")
	}
	return nil
}

func mustNew(t testing.TB, o Options) *Agent {
	t.Helper()
	a, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

var errEOF = io.EOF
