package pduwire_test

import (
	"errors"
	"testing"

	"github.com/perfwire/perfwire/pduwire"
)

// TestFirstPDUNotCreds covers the server's side of docs/pcp-pdu.md §8.2
// "unsolicited PDUs before CREDS" (§5.3 step 3: pmcd drops a client whose
// first PDU is not CREDS). pduwire has no server, but its CREDS decoder
// and CheckClientCreds are what a server built on it applies to the
// first PDU: every captured client's first PDU passes both, and every
// other PDU the clients sent, put first, is refused with ErrType.
func TestFirstPDUNotCreds(t *testing.T) {
	others := 0
	for _, conv := range captures(t) {
		s := loadStream(t, conv, "client")
		var c pduwire.CredsPDU
		if err := c.UnmarshalBinary(s.pdus[0].Bytes); err != nil {
			t.Fatalf("%s: first client PDU: %v", conv, err)
		}
		if _, err := pduwire.CheckClientCreds(&c); err != nil {
			t.Fatalf("%s: first client CREDS: %v", conv, err)
		}
		for _, p := range s.pdus[1:] {
			others++
			err := c.UnmarshalBinary(p.Bytes)
			if !errors.Is(err, pduwire.ErrType) {
				t.Fatalf("%s: %v as the first PDU: %v, want ErrType", conv, p.Header.Type, err)
			}
			if pe, ok := errors.AsType[*pduwire.ParseError](err); !ok || pe.Offset != 4 {
				t.Fatalf("%s: %v: want a ParseError at the type word, got %v", conv, p.Header.Type, err)
			}
		}
	}
	if others == 0 {
		t.Fatal("the captures hold no client PDU after CREDS")
	}
}
