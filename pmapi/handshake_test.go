package pmapi

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// scriptedPmcd accepts one connection, sends pre (the greeting and
// anything the test wants before the client's CREDS), hands the client's
// first PDU to gotFirst, then sends post and holds the connection open.
func scriptedPmcd(t *testing.T, pre, post []byte, gotFirst chan<- pduwire.PDU) string {
	t.Helper()
	return serveOne(t, func(conn net.Conn) {
		conn.Write(pre)
		r := pduwire.NewReader(conn, pduwire.Options{MaxPDULen: pduwire.ServerMaxPDULen})
		if !r.Next() {
			close(gotFirst)
			return
		}
		p := r.PDU()
		p.Bytes = append([]byte(nil), p.Bytes...)
		gotFirst <- p
		conn.Write(post)
		time.Sleep(2 * time.Second)
	})
}

// TestHandshakeSecureAckRefusal covers docs/pcp-pdu.md §8.2 "SECURE_ACK status
// ≠ 0" as far as a client without TLS meets it (§5.3 steps 2–4): pmcd
// advertises SECURE, SECURE_ACK and CERT_REQD; the client must not
// request SECURE or SECURE_ACK (it cannot start TLS), so it sends CREDS
// with flags 0. If the server sends the SECURE_ACK-style ERROR(status)
// anyway, a non-zero status must come back to the caller as that
// PM_ERR_* code on the next request, never be taken for a reply.
func TestHandshakeSecureAckRefusal(t *testing.T) {
	features := pduwire.NewFeatures(2, 1, 0x0e00|pduwire.FlagSecure|pduwire.FlagSecureAck|pduwire.FlagCertReqd)
	for _, mode := range ioModes {
		t.Run(mode.name, func(t *testing.T) {
			refusal := (&pduwire.ErrorPDU{Code: int32(pcp.ErrNeedClientCert)}).Append(nil, 0)
			first := make(chan pduwire.PDU, 1)
			addr := scriptedPmcd(t, pduwire.AppendServerHello(nil, 0, features), refusal, first)
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			c, err := Dial(ctx, addr, mode.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			p, ok := <-first
			if !ok {
				t.Fatal("the client sent no PDU")
			}
			var creds pduwire.CredsPDU
			if err := creds.UnmarshalBinary(p.Bytes); err != nil {
				t.Fatalf("first client PDU: %v", err)
			}
			flags, err := pduwire.CheckClientCreds(&creds)
			if err != nil {
				t.Fatal(err)
			}
			if flags&(pduwire.FlagSecure|pduwire.FlagSecureAck) != 0 {
				t.Fatalf("client without TLS requested SECURE/SECURE_ACK: flags %#x", flags)
			}
			_, err = c.Fetch(ctx, pcp.NewID(29, 0, 10))
			var se *ServerError
			if !errors.As(err, &se) || !errors.Is(err, pcp.ErrNeedClientCert) {
				t.Fatalf("status ERROR(PM_ERR_NEEDCLIENTCERT) reported as %v", err)
			}
		})
	}
}

// TestHandshakeUnsolicitedBeforeCreds covers docs/pcp-pdu.md §8.2 "unsolicited
// PDUs before CREDS" from the client's side (§5.3: pmcd speaks once, the
// 20-byte ERROR, then waits for CREDS): PDUs a server sends before the
// client's CREDS are read after it, where a reply is expected, and must
// end that request with a typed error, not be taken as its answer.
// The server's side of the item (a first client PDU that is not CREDS)
// is pduwire's TestFirstPDUNotCreds.
func TestHandshakeUnsolicitedBeforeCreds(t *testing.T) {
	hello := pduwire.AppendServerHello(nil, 0, pduwire.NewFeatures(2, 1, 0x0e44))
	text := (&pduwire.TextPDU{Text: []byte("hi")}).Append(nil, 0)
	ipc := (&pduwire.ErrorPDU{Code: int32(pcp.ErrIPC)}).Append(nil, 0)
	hello2 := pduwire.AppendServerHello(nil, 0, pduwire.NewFeatures(2, 1, 0x0e44))
	for _, tc := range []struct {
		name  string
		extra []byte
		want  error
	}{
		{"TEXT before CREDS", text, ErrProtocol},
		{"second hello before CREDS", hello2, ErrProtocol},
		{"ERROR(PM_ERR_IPC) before CREDS", ipc, pcp.ErrIPC},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first := make(chan pduwire.PDU, 1)
			addr := scriptedPmcd(t, append(append([]byte(nil), hello...), tc.extra...), nil, first)
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			c, err := Dial(ctx, addr, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if p, ok := <-first; !ok || p.Header.Type != pduwire.TypeCreds {
				t.Fatalf("client's first PDU is not CREDS: %+v", p.Header)
			}
			_, err = c.Fetch(ctx, pcp.NewID(29, 0, 10))
			if !errors.Is(err, tc.want) {
				t.Fatalf("fetch after an unsolicited %s: %v, want %v", tc.name, err, tc.want)
			}
		})
	}
}
