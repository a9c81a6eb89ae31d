package pmda

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// raw builds a PDU from words: len is filled in unless words[0] is given
// as a non-zero length.
func raw(typ pduwire.Type, body ...uint32) []byte {
	b := wire.AppendU32BE(nil, uint32(12+4*len(body)))
	b = wire.AppendU32BE(b, uint32(typ))
	b = wire.AppendU32BE(b, 0)
	for _, w := range body {
		b = wire.AppendU32BE(b, w)
	}
	return b
}

func bigFetch(n int) []byte {
	ids := make([]pcp.ID, n)
	for i := range ids {
		ids[i] = idCount
	}
	return (&pduwire.FetchPDU{PMIDs: ids}).Append(nil, 0)
}

// TestBadRequests sends requests that must be answered with an error code
// and leave the agent serving.
func TestBadRequests(t *testing.T) {
	tests := []struct {
		name string
		pdu  []byte
		want pcp.Code
	}{
		{"unknown type", raw(0x7fff, 1, 2), pcp.ErrIPC},
		{"CONTROL_REQ-like unknown", raw(0x700b), pcp.ErrIPC},
		{"FETCH count past the end", raw(pduwire.TypeFetch, 0, 0, 0, 1000000, uint32(idCount)), pcp.ErrIPC},
		{"FETCH of no pmID", raw(pduwire.TypeFetch, 0, 0, 0, 0), pcp.ErrIPC},
		{"FETCH above MaxPMIDs", bigFetch(40000), pcp.ErrTooBig},
		{"DESC_REQ too long", raw(pduwire.TypeDescReq, uint32(idCount), 0), pcp.ErrIPC},
		{"DESC_REQ truncated", raw(pduwire.TypeDescReq), pcp.ErrIPC},
		{"INSTANCE_REQ negative name length", raw(pduwire.TypeInstanceReq, uint32(colours), 0, 0, 0xffffffff, 0xfffffff0), pcp.ErrIPC},
		{"INSTANCE_REQ unknown indom", (&pduwire.InstanceReqPDU{InDom: pcp.NewInDom(1, 1), Inst: pcp.InNull}).Append(nil, 0), pcp.ErrInDom},
		{"TEXT_REQ short", raw(pduwire.TypeTextReq, 1), pcp.ErrIPC},
		{"TEXT_REQ unknown", (&pduwire.TextReqPDU{Ident: 77, Kind: pduwire.TextOneline | pduwire.TextPMID}).Append(nil, 0), pcp.ErrText},
		{"LABEL_REQ bad type", (&pduwire.LabelReqPDU{Ident: 1, Kind: 0x40}).Append(nil, 0), pcp.ErrType},
		{"store RESULT with a bad count", raw(pduwire.TypeResult, 0, 0, 0x7fffffff), pcp.ErrIPC},
		{"store RESULT with a bad valfmt", raw(pduwire.TypeResult, 0, 0, 1, uint32(idCount), 1, 9, 0xffffffff, 1), pcp.ErrIPC},
		{"PMNS_NAMES without a namespace", (&pduwire.PMNSNamesPDU{Names: [][]byte{[]byte("test.x")}}).Append(nil, 0), pcp.ErrName},
		{"PMNS_NAMES of two names", (&pduwire.PMNSNamesPDU{Names: [][]byte{[]byte("a"), []byte("b")}}).Append(nil, 0), pcp.ErrIPC},
		{"PMNS_IDS without a namespace", (&pduwire.PMNSIDsPDU{PMIDs: []pcp.ID{idCount}}).Append(nil, 0), pcp.ErrPMID},
		{"PMNS_CHILD without a namespace", (&pduwire.PMNSChildPDU{Name: []byte("test")}).Append(nil, 0), pcp.ErrName},
		{"PMNS_TRAVERSE truncated", raw(pduwire.TypePMNSTraverse, 0, 100), pcp.ErrIPC},
	}
	f := startAgent(t, testAgent(t, nil))
	for _, tc := range tests {
		f.sendRaw(tc.pdu)
		if got := f.recvError(); got != tc.want {
			t.Errorf("%s: answered %v, want %v", tc.name, got, tc.want)
		}
	}
	// Unanswered PDUs that do not decode are dropped silently.
	f.sendRaw(raw(pduwire.TypeProfile, 0))
	f.sendRaw(raw(pduwire.TypeAttr))
	f.sendRaw(raw(pduwire.TypeError, 1, 2, 3))
	f.send(&pduwire.ProfilePDU{Entries: []pduwire.ProfileEntry{{InDom: pcp.NewInDom(9, 9), State: pduwire.ProfileExclude}}}, 0)
	if r := fetch(f, idCount); r.NumPMID != 1 {
		t.Errorf("after bad PDUs: %+v", r)
	}
}

// TestBadStreams sends framing failures: Serve must end with an error
// naming the failure, without a reply and without allocating for the
// announced length.
func TestBadStreams(t *testing.T) {
	hdr := func(n uint32, typ int32) []byte {
		b := wire.AppendU32BE(nil, n)
		b = wire.AppendU32BE(b, uint32(typ))
		return wire.AppendU32BE(b, 0)
	}
	creds := (&pduwire.CredsPDU{Creds: []pduwire.Credential{pduwire.NewVersionCred(2, 0)}}).Append(nil, 1)
	// pduwire's kind for a len below 12 is unexported: the one its own
	// ConsumeHeader gives the same header, told by its Code.
	_, _, err := pduwire.ConsumeHeader(hdr(8, 0x7003))
	if pe, ok := errors.AsType[*pduwire.ParseError](err); !ok || pe.Code() != "pdu_length" {
		t.Fatalf("ConsumeHeader of len 8: %v", err)
	}
	headerLen := err.(*pduwire.ParseError).Err
	tests := []struct {
		name  string
		input []byte
		want  error
	}{
		{"length below the header", hdr(8, 0x7003), headerLen},
		{"length above the limit", hdr(1<<30, 0x7003), pduwire.ErrLimit},
		{"FETCH of a million pmIDs", bigFetch(1000000), pduwire.ErrLimit},
		{"negative type", hdr(12, -5), pduwire.ErrType},
		{"stream cut inside a PDU", hdr(100, 0x7003), pduwire.ErrTruncated},
		{"stream cut inside a header", []byte{0, 0}, pduwire.ErrTruncated},
		{"bad CREDS from pmcd", raw(pduwire.TypeCreds, 0, 0), pduwire.ErrCount},
	}
	for _, tc := range tests {
		a := testAgent(t, nil)
		in := tc.input
		if tc.name != "bad CREDS from pmcd" {
			in = append(append([]byte(nil), creds...), in...)
		}
		var out bytes.Buffer
		err := serveWithin(t, a, bytes.NewReader(in), &out)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: Serve returned %v, want %v", tc.name, err, tc.want)
		}
		if n := out.Len(); n != 20 { // the agent's CREDS only
			t.Errorf("%s: the agent wrote %d bytes", tc.name, n)
		}
	}
}

// serveWithin runs Serve and fails if it takes more than 10 s.
func serveWithin(t *testing.T, a *Agent, r io.Reader, w io.Writer) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- a.Serve(context.Background(), r, w) }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return")
	}
	return nil
}

// failWriter fails after n bytes, as a pmcd that closes the pipe while the
// agent answers.
type failWriter struct{ n int }

func (w *failWriter) Write(b []byte) (int, error) {
	if len(b) > w.n {
		return 0, io.ErrClosedPipe
	}
	w.n -= len(b)
	return len(b), nil
}

func TestPeerClosesMidReply(t *testing.T) {
	a := testAgent(t, nil)
	in := (&pduwire.CredsPDU{Creds: []pduwire.Credential{pduwire.NewVersionCred(2, 0)}}).Append(nil, 1)
	in = (&pduwire.FetchPDU{PMIDs: []pcp.ID{idCount}}).Append(in, 0)
	err := serveWithin(t, a, bytes.NewReader(in), &failWriter{n: 20})
	if !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("Serve returned %v, want the write error", err)
	}
	err = serveWithin(t, a, bytes.NewReader(in), &failWriter{n: 0})
	if !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("Serve with a failed CREDS returned %v", err)
	}
}

// TestCapturedStream replays what pmcd sent the Go simple PMDA through a
// test agent of the same domain: every request is answered, with PDUs that
// decode.
func TestCapturedStream(t *testing.T) {
	in := readCapture(t)
	var out bytes.Buffer
	if err := serveWithin(t, testAgent(t, nil), bytes.NewReader(in), &out); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	requests, replies := 0, 0
	for p, err := range pduwire.All(in, pduwire.Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		if p.Offset > 0 && expectsReply(p.Header.Type) {
			requests++
		}
	}
	for p, err := range pduwire.All(out.Bytes(), pduwire.Options{}) {
		if err != nil {
			t.Fatalf("agent output: %v", err)
		}
		if p.Offset == 0 {
			continue // CREDS
		}
		replies++
		if _, err := pduwire.Decode(p.Bytes); err != nil {
			t.Errorf("reply %s does not decode: %v", p.Header.Type, err)
		}
	}
	if requests < 30 || replies != requests {
		t.Errorf("%d requests, %d replies", requests, replies)
	}
}
