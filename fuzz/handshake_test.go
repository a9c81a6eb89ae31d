package fuzz

import (
	"testing"

	"github.com/perfwire/perfwire/pduwire"
)

// TestServerHelloOddFeatureBits covers docs/pcp-pdu.md §8.2 "wrong zero/licensed
// bits": libpcp does not inspect the zero, version or licensed bits of
// pmcd's features word (PCP QA feeds it 0xdeadbeef, §5.2), so neither may
// we; the word must come back unchanged for the caller to judge.
func TestServerHelloOddFeatureBits(t *testing.T) {
	for _, feat := range []uint32{
		0xdeadbeef, // QA's value: bit 31 set, version 0x5e, licensed 0xad
		0x80010e44, // only the zero bit wrong
		0x02000e44, // licensed 0
		0x02ff0e44, // licensed 255
		0x00010e44, // version 0
	} {
		pdu := (&pduwire.ErrorPDU{Extended: true, Datum: feat}).Append(nil, 0)
		h, err := pduwire.ParseServerHello(pdu)
		if err != nil {
			t.Errorf("features %#08x: %v", feat, err)
			continue
		}
		if uint32(h.Features) != feat || h.Status != 0 {
			t.Errorf("features %#08x: got %#08x, status %d", feat, uint32(h.Features), h.Status)
		}
	}
}
