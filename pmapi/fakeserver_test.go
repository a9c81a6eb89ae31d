package pmapi

import (
	"context"
	"errors"
	"net"
	"os"
	"testing"
	"time"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// hello is pmcd 6.0.3's handshake PDU, as captured (testdata/pmcd-hello.bin).
func hello(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/pmcd-hello.bin")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// serveOne listens on a loopback port, runs serve on the first
// connection in a goroutine (closing it afterwards) and returns the
// address; the listener closes with the test.
func serveOne(t testing.TB, serve func(conn net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		serve(conn)
	}()
	return ln.Addr().String()
}

// fakePmcd accepts one connection, reads the client's CREDS, then runs
// script: a misbehaving server under the test's control.
func fakePmcd(t *testing.T, greeting []byte, script func(conn *fakeConn)) string {
	t.Helper()
	return serveOne(t, func(conn net.Conn) {
		conn.Write(greeting)
		r := pduwire.NewReader(conn, pduwire.Options{MaxPDULen: pduwire.ServerMaxPDULen})
		if !r.Next() || r.PDU().Header.Type != pduwire.TypeCreds {
			return
		}
		script(&fakeConn{conn, r})
	})
}

// fakeConn is the fake pmcd's side of a connection, with the one Reader
// that must read all of it (a Reader buffers ahead).
type fakeConn struct {
	net.Conn
	r *pduwire.Reader
}

// fetchPmcd is a fakePmcd with pmcd's handshake that reads a client's
// first fetch (its PROFILE and HIGHRES_FETCH), then runs reply.
func fetchPmcd(t *testing.T, reply func(conn *fakeConn)) string {
	return fakePmcd(t, hello(t), func(conn *fakeConn) {
		readRequest(conn)
		readRequest(conn)
		reply(conn)
	})
}

// readRequest consumes one client PDU.
func readRequest(conn *fakeConn) {
	conn.r.Next()
}

// headerLenKind is pduwire's unexported kind for a len below the header,
// taken from its verdict on hdr and checked by its Code.
func headerLenKind(t *testing.T, hdr []byte) error {
	t.Helper()
	_, _, err := pduwire.ConsumeHeader(hdr)
	pe, ok := errors.AsType[*pduwire.ParseError](err)
	if !ok || pe.Code() != "pdu_length" {
		t.Fatalf("ConsumeHeader of a len below the header: %v", err)
	}
	return pe.Err
}

func TestFakeServerMisbehaviour(t *testing.T) {
	huge := pduwire.AppendHeader(nil, pduwire.Header{Len: 0x7fffffff, Type: pduwire.TypeHighResResult})
	short := pduwire.AppendHeader(nil, pduwire.Header{Len: 8, Type: pduwire.TypeError})
	wrongType := (&pduwire.TextPDU{Text: []byte("hi")}).Append(nil, 0)
	headerLen := headerLenKind(t, short)
	badResult := append(pduwire.AppendHeader(nil, pduwire.Header{Len: 20, Type: pduwire.TypeHighResResult}), 0, 0, 0, 9, 0, 0, 0, 0)
	tests := []struct {
		name  string
		reply []byte // sent after the request; nil = say nothing
		close bool   // hang up after replying
		want  error
	}{
		{"silence", nil, false, context.DeadlineExceeded},
		{"hang up", nil, true, nil},
		{"truncated PDU", []byte{0, 0, 0, 40, 0, 0, 0x70}, true, nil},
		{"len below header", short, false, headerLen},
		{"len beyond limit", huge, false, pduwire.ErrLimit},
		{"wrong PDU type", wrongType, false, ErrProtocol},
		{"bad RESULT body", badResult, false, ErrProtocol},
	}
	for _, mode := range ioModes {
		for _, tc := range tests {
			t.Run(mode.name+"/"+tc.name, func(t *testing.T) {
				addr := fetchPmcd(t, func(conn *fakeConn) {
					if tc.reply != nil {
						conn.Write(tc.reply)
					}
					if !tc.close {
						time.Sleep(2 * time.Second)
					}
				})
				ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
				defer cancel()
				c, err := Dial(ctx, addr, mode.opts)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				_, err = c.Fetch(ctx, pcp.NewID(29, 0, 10))
				if err == nil {
					t.Fatal("fetch from a misbehaving server succeeded")
				}
				if tc.want != nil && !errors.Is(err, tc.want) {
					t.Fatalf("err = %v, want %v", err, tc.want)
				}
				if _, err := c.Fetch(context.Background(), pcp.NewID(29, 0, 10)); !errors.Is(err, ErrClosed) {
					t.Fatalf("after a failed exchange the client still talks: %v", err)
				}
			})
		}
	}
}

// ioModes are the two ways a Client does I/O; the fake-server tests run
// in both.
var ioModes = []struct {
	name string
	opts Options
}{{"poller", Options{}}, {"blocking", Options{BlockingIO: true}}}

// TestFakeServerSilentTimeouts: against a pmcd that never answers, the
// client timeout and a cancelled context each end the request on time,
// in both I/O modes.
func TestFakeServerSilentTimeouts(t *testing.T) {
	for _, mode := range ioModes {
		t.Run(mode.name+"/timeout", func(t *testing.T) {
			addr := fakePmcd(t, hello(t), func(conn *fakeConn) { time.Sleep(3 * time.Second) })
			c := dialFake(t, addr, Options{BlockingIO: mode.opts.BlockingIO, Timeout: 300 * time.Millisecond})
			start := time.Now()
			_, err := c.Fetch(context.Background(), pcp.NewID(29, 0, 10))
			if !errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatalf("err = %v, want a deadline error", err)
			}
			if d := time.Since(start); d < 250*time.Millisecond || d > 2*time.Second {
				t.Fatalf("timed out after %v, the timeout is 300ms", d)
			}
		})
		t.Run(mode.name+"/cancel", func(t *testing.T) {
			addr := fakePmcd(t, hello(t), func(conn *fakeConn) { time.Sleep(3 * time.Second) })
			c := dialFake(t, addr, mode.opts)
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(200*time.Millisecond, cancel)
			start := time.Now()
			_, err := c.Fetch(ctx, pcp.NewID(29, 0, 10))
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Fatalf("cancellation took %v", d)
			}
		})
	}
}

func TestFakeServerHandshake(t *testing.T) {
	refuse := (&pduwire.ErrorPDU{Code: pcp.ToV1(pcp.ErrConnLimit), Extended: true}).Append(nil, 0) // PM_ERR_CONNLIMIT
	short := (&pduwire.ErrorPDU{Code: 0}).Append(nil, 0)                                           // 16 bytes, no features
	for name, tc := range map[string]struct {
		greeting []byte
		want     error
	}{
		"refused":       {refuse, nil},
		"no features":   {short, ErrProtocol},
		"not an ERROR":  {(&pduwire.TextPDU{}).Append(nil, 0), ErrProtocol},
		"garbage bytes": {[]byte("HTTP/1.1 400 Bad Request\r\n\r\n"), nil},
	} {
		t.Run(name, func(t *testing.T) {
			addr := serveOne(t, func(conn net.Conn) {
				conn.Write(tc.greeting)
				time.Sleep(time.Second)
			})
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			defer cancel()
			c, err := Dial(ctx, addr, Options{})
			if err == nil {
				c.Close()
				t.Fatal("handshake with a bad server succeeded")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			var se *ServerError
			if name == "refused" && (!errors.As(err, &se) || !errors.Is(err, pcp.ErrConnLimit)) {
				t.Fatalf("refusal not reported as PM_ERR_CONNLIMIT: %v", err)
			}
		})
	}
}

// State-change ERROR PDUs before a result are collected, not errors.
func TestFakeServerStateChange(t *testing.T) {
	res := (&pduwire.ResultPDU{HighRes: true, Sec: 1, Sets: []pduwire.ValueSetData{{PMID: pcp.NewID(29, 0, 10),
		Values: []pduwire.ValueData{{Inst: pcp.InNull, Word: 1}}}}}).Append(nil, 0)
	addr := fetchPmcd(t, func(conn *fakeConn) {
		conn.Write((&pduwire.ErrorPDU{Code: 0x8}).Append(nil, 0))  // PMCD_LABEL_CHANGE
		conn.Write((&pduwire.ErrorPDU{Code: 0x10}).Append(nil, 0)) // PMCD_NAMES_CHANGE
		conn.Write(res)
	})
	c := dialFake(t, addr, Options{})
	r, err := c.Fetch(context.Background(), pcp.NewID(29, 0, 10))
	if err != nil || r.NumPMID != 1 {
		t.Fatalf("fetch after state changes: %+v, %v", r, err)
	}
	if ch := c.Changes(); ch != 0x18 {
		t.Fatalf("Changes() = %#x, want 0x18", ch)
	}
}
