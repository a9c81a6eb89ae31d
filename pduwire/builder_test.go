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
	b.AddUint32(0)
	b.AddString("sample.colour")
	got, err := b.Finish()
	if _, ok := samePDU(s.pdus[1].Bytes, got); err != nil || !ok {
		t.Errorf("PMNS_TRAVERSE: % x (%v)", got, err)
	}
	// @0: CREDS, appended after existing bytes.
	prefix := []byte("xx")
	b = pduwire.NewBuilder(prefix, pduwire.TypeCreds, s.pdus[0].Header.From)
	b.AddUint32(1)
	b.AddUint32(0x01020000)
	got, err = b.Finish()
	if err != nil || !bytes.Equal(got[2:], s.pdus[0].Bytes) || string(got[:2]) != "xx" {
		t.Errorf("CREDS: % x (%v)", got, err)
	}
	// A fixed builder refuses to grow.
	b = pduwire.NewFixedBuilder(make([]byte, 0, 16), pduwire.TypeFetch, 0)
	b.AddUint32(0)
	b.AddUint64(0)
	if _, err := b.Finish(); !errors.Is(err, pduwire.ErrLimit) {
		t.Errorf("fixed builder overflow: %v", err)
	}
	// The first failure is sticky: a later field that would fit is
	// refused too, and Finish reports the first failure (the 8 bytes
	// that did not fit at offset 12 of a 16-byte buffer).
	b = pduwire.NewFixedBuilder(make([]byte, 0, 16), pduwire.TypeFetch, 0)
	b.AddUint64(0)
	b.AddUint32(0)
	got, err = b.Finish()
	pe, ok := errors.AsType[*pduwire.ParseError](err)
	if !ok || !errors.Is(err, pduwire.ErrLimit) || pe.Offset != 12 || pe.Value != 20 || pe.Limit != 16 || len(got) != 0 {
		t.Errorf("sticky error: %d bytes, %v", len(got), err)
	}
	buf := make([]byte, 0, 64)
	b = pduwire.NewFixedBuilder(buf, pduwire.TypeAttr, 0)
	b.AddUint32(15)
	b.AddBytes([]byte("abc"))
	got, err = b.Finish()
	if err != nil || len(got) != 19 || &got[0] != &buf[:1][0] {
		t.Errorf("fixed builder: % x (%v)", got, err)
	}
}
