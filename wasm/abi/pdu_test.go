package abi

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfwire/perfwire/pduwire"
)

// sameError reports whether a and b are both nil or have the same text
// (the wire.Error text names format, field, offset and kind).
func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Error() == b.Error()
}

// checkDecodeBody compares decodeBody with pduwire.Decode on pdu, whose
// header must be valid and whose length must match.
func checkDecodeBody(t *testing.T, pdu []byte) {
	t.Helper()
	h, _, err := pduwire.ConsumeHeader(pdu)
	if err != nil || int(h.Len) != len(pdu) {
		return
	}
	_, want := pduwire.Decode(pdu)
	body, got := decodeBody(h.Type, pdu)
	if pduwire.New(h.Type) == nil {
		// No decoder: the schema carries the body in hex.
		if _, ok := body.(*UnknownBody); !ok || got != nil {
			t.Errorf("type %#x: %T, %v; want the body in hex", int32(h.Type), body, got)
		}
		return
	}
	if !sameError(got, want) {
		t.Errorf("type %#x (%d bytes): decodeBody %v, pduwire.Decode %v", int32(h.Type), len(pdu), got, want)
	}
}

// TestDecodeBodyMatchesDecode keeps decodeBody's switch in step with
// pduwire.New: every type code gets the same answer for a body-less PDU
// (the body in hex exactly where pduwire has no decoder), and every PDU of the
// real pmcd conversations decodes the same way.
func TestDecodeBodyMatchesDecode(t *testing.T) {
	// pmcd's codes are 0x7000… and pmlogger's 0x8000…; the rest must be
	// ErrType on both sides.
	for code := range int32(0x8100) {
		pdu := pduwire.AppendHeader(nil, pduwire.Header{Len: pduwire.HeaderLen, Type: pduwire.Type(code)})
		checkDecodeBody(t, pdu)
		if code&0x7f00 == 0x7000 || code&0xff00 == 0x8000 {
			long := append(pdu, make([]byte, 64)...)
			binary.BigEndian.PutUint32(long, uint32(len(long)))
			checkDecodeBody(t, long)
		}
	}
	for _, name := range []string{"conv01.client.bin", "conv01.server.bin"} {
		in, err := os.ReadFile(filepath.Join("..", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for p, err := range pduwire.All(in, pduwire.Options{}) {
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			checkDecodeBody(t, p.Bytes)
			n++
		}
		if n == 0 {
			t.Fatalf("%s: no PDUs", name)
		}
	}
}

// FuzzDecodeBody: on any PDU with a valid header, decodeBody and
// pduwire.Decode give the same error (or none).
func FuzzDecodeBody(f *testing.F) {
	for _, name := range []string{"conv01.client.bin", "conv01.server.bin"} {
		in, err := os.ReadFile(filepath.Join("..", "testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		for p, err := range pduwire.All(in, pduwire.Options{}) {
			if err != nil {
				break
			}
			f.Add(p.Bytes)
		}
	}
	f.Fuzz(func(t *testing.T, pdu []byte) {
		if len(pdu) >= pduwire.HeaderLen {
			binary.BigEndian.PutUint32(pdu, uint32(len(pdu)))
		}
		checkDecodeBody(t, pdu)
	})
}
