package pduwire

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/internal/wire"
)

// A damaged event array inside a RESULT's value is reported with the
// field that failed and its offset in the PDU, on one line, and matches
// both ErrEvent and eventrec's own kind, not only the PDU's offset.
func TestResultEventErrorNamesField(t *testing.T) {
	stream, err := os.ReadFile("testdata/captures/conv05.server.bin")
	if err != nil {
		t.Fatal(err)
	}
	// The capture's sixth PDU is the HIGHRES_RESULT of sample.event.*; its
	// word at byte 92 is the first array's record count.
	s := NewScanner(stream, Options{})
	var pdu []byte
	for s.Next() {
		if s.PDU().Header.Type == TypeHighResResult {
			pdu = append([]byte(nil), s.PDU().Bytes...)
			break
		}
	}
	if pdu == nil {
		t.Fatal("no HIGHRES_RESULT in the capture")
	}
	copy(pdu[92:], []byte{0x7f, 0xff, 0xff, 0xff})
	_, err = ParseResult(pdu)
	pe, ok := errors.AsType[*ParseError](err)
	if !ok || pe.Offset != 92 || pe.Field != "event.ea_nrecords" ||
		!errors.Is(err, ErrEvent) || !errors.Is(err, eventrec.ErrCount) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v (%#v)", err, pe)
	}
	// The wasm ABI reports the kind errors.As finds: ErrEvent, whatever
	// eventrec's kind inside.
	if k, ok := errors.AsType[*wire.Kind](err); !ok || k != ErrEvent {
		t.Fatalf("errors.As finds kind %v, want ErrEvent", k)
	}
}
