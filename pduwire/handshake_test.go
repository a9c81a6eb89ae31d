package pduwire_test

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/perfwire/perfwire/pduwire"
)

// TestHandshake covers the handshake items of docs/pcp-pdu.md §8.2.
func TestHandshake(t *testing.T) {
	// pmcd 6.0.3's hello, byte for byte from the captures.
	hello := mk(pduwire.TypeError, 0, 0x02010e44)
	h, err := pduwire.ParseServerHello(hello)
	if err != nil || h.Status != 0 || h.Features != 0x02010e44 || h.Features.Licensed() != 1 ||
		!h.Features.Labels() || !h.Features.HighResFetch() || !h.Features.DescIDs() {
		t.Fatalf("hello: %+v %v", h, err)
	}
	if got := pduwire.AppendServerHello(nil, 0, h.Features); string(got) != string(hello) {
		t.Errorf("AppendServerHello: % x", got)
	}
	// The client never echoes LABELS, HIGHRES or DESCS; it echoes CREDS_REQD.
	if f := pduwire.ClientFlags(h.Features); f != 0 {
		t.Errorf("flags %#x for pmcd's default features", f)
	}
	if f := pduwire.ClientFlags(pduwire.NewFeatures(2, 1, 0x0e00|pduwire.FlagCredsReqd)); f != pduwire.FlagCredsReqd {
		t.Errorf("flags %#x, want CREDS_REQD", f)
	}
	// The captured client hello: pid 4242, version 2, flags 0 (docs/pcp-pdu.md §4.2).
	want := []byte{0, 0, 0, 0x14, 0, 0, 0x70, 0x0c, 0, 0, 0x10, 0x92, 0, 0, 0, 1, 1, 2, 0, 0}
	if got := pduwire.AppendClientCreds(nil, 4242, 0); string(got) != string(want) {
		t.Errorf("CREDS % x", got)
	}
	if got := pduwire.AppendClientCreds(nil, 1, 0xffff); got[18]&0x0e != 0 || got[19]&0x20 != 0 {
		t.Errorf("one-way or historic flags leaked into CREDS: % x", got)
	}
	// A 16-byte ERROR is not a hello.
	if _, err := pduwire.ParseServerHello(mk(pduwire.TypeError, 0)); !errors.Is(err, pduwire.ErrLength) {
		t.Errorf("16-byte hello: %v", err)
	}
	if _, err := pduwire.ParseServerHello(mk(pduwire.TypeCreds, 1, 0x01020000)); !errors.Is(err, pduwire.ErrType) {
		t.Errorf("CREDS as hello: %v", err)
	}
	// Refusals in V1 numbering (docs/pcp-pdu.md §5.3): PERMISSION −1042, CONNLIMIT −1043.
	for v1, code := range map[int32]int32{-1042: -12387, -1043: -12388, 0: 0, -5: -5} {
		h, err := pduwire.ParseServerHello(mk(pduwire.TypeError, uint32(v1), 0))
		if err != nil || h.Status != code {
			t.Errorf("V1 %d: status %d, %v; want %d", v1, h.Status, err, code)
		}
		if got := pduwire.AppendServerHello(nil, code, 0); int32(binary.BigEndian.Uint32(got[12:])) != v1 {
			t.Errorf("AppendServerHello(%d) sends status % x, want %d", code, got[12:16], v1)
		}
	}
	// Unknown feature bits are reported, not rejected.
	h, err = pduwire.ParseServerHello(mk(pduwire.TypeError, 0, 0x0201f000))
	if err != nil || h.Features.Flags() != 0xf000 {
		t.Errorf("unknown bits: %+v %v", h, err)
	}
	// Server side: pmcd's rules for the client's CREDS.
	for _, tc := range []struct {
		creds []pduwire.Credential
		want  error
	}{
		{[]pduwire.Credential{pduwire.NewVersionCred(2, 0)}, nil},
		{[]pduwire.Credential{pduwire.NewVersionCred(2, pduwire.FlagSecure|pduwire.FlagSecureAck|pduwire.FlagContainer)}, nil},
		{[]pduwire.Credential{pduwire.NewVersionCred(2, pduwire.FlagLabels)}, pduwire.ErrField},
		{[]pduwire.Credential{pduwire.NewVersionCred(0, 0)}, pduwire.ErrField},
		{[]pduwire.Credential{0x02020000}, pduwire.ErrField},
		{[]pduwire.Credential{pduwire.NewVersionCred(2, 0), pduwire.NewVersionCred(2, 0)}, pduwire.ErrCount},
	} {
		var c pduwire.CredsPDU
		if err := c.UnmarshalBinary((&pduwire.CredsPDU{Creds: tc.creds}).Append(nil, 1)); err != nil {
			t.Fatal(err)
		}
		if _, err := pduwire.CheckClientCreds(&c); !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
			t.Errorf("creds %x: %v, want %v", tc.creds, err, tc.want)
		}
	}
}
