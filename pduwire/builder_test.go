package pduwire_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/perfwire/perfwire/pduwire"
)

// TestBuilder rebuilds captured PDUs field by field and expects libpcp's
// bytes (modulo its '~' pad bytes).
func TestBuilder(t *testing.T) {
	s := loadStream(t, "conv04", "client")
	// @20: PMNS_TRAVERSE of "sample.colour".
	b := pduwire.NewBuilder(nil, pduwire.TypePMNSTraverse, 0)
	b.U32(0)
	b.String([]byte("sample.colour"))
	got, err := b.Finish()
	if _, ok := samePDU(s.pdus[1].Bytes, got); err != nil || !ok {
		t.Errorf("PMNS_TRAVERSE: % x (%v)", got, err)
	}
	// @0: CREDS, appended after existing bytes.
	prefix := []byte("xx")
	b = pduwire.NewBuilder(prefix, pduwire.TypeCreds, s.pdus[0].Header.From)
	b.U32(1)
	b.U32(0x01020000)
	got, err = b.Finish()
	if err != nil || !bytes.Equal(got[2:], s.pdus[0].Bytes) || string(got[:2]) != "xx" {
		t.Errorf("CREDS: % x (%v)", got, err)
	}
	// A fixed builder refuses to grow.
	b = pduwire.NewFixedBuilder(make([]byte, 0, 16), pduwire.TypeFetch, 0)
	b.U32(0)
	b.U64(0)
	if _, err := b.Finish(); !errors.Is(err, pduwire.ErrLimit) {
		t.Errorf("fixed builder overflow: %v", err)
	}
	buf := make([]byte, 0, 64)
	b = pduwire.NewFixedBuilder(buf, pduwire.TypeAttr, 0)
	b.U32(15)
	b.Bytes([]byte("abc"))
	got, err = b.Finish()
	if err != nil || len(got) != 19 || &got[0] != &buf[:1][0] {
		t.Errorf("fixed builder: % x (%v)", got, err)
	}
}
