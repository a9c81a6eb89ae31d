package abi

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/schema"
)

// kpi_decode's second argument names the framing above its low 24 bits:
// TestKPIDecodeSerial: kpi_decode's second argument names the framing
// above its low 24 bits: kpi-odd's messages in the serial framing ("DLS" 01 before each, with
// garbage between two) decode to what its .dlt file does, the garbage
// counted as skipped; a framing above 2 is bad input.
func TestKPIDecodeSerial(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("..", "testdata", "kpi-odd.dlt"))
	if err != nil {
		t.Fatal(err)
	}
	var serial []byte
	s := dlt.NewScanner(in, dlt.Options{})
	for i := 0; s.Next(); i++ {
		serial = append(dlt.AppendSerialHeader(serial), s.Message().Bytes()[dlt.StorageHeaderLen:]...)
		if i == 30 {
			serial = append(serial, "DLS\x01junk"...)
		}
	}
	m := NewModule()
	call := func(b []byte, n uint32) schema.KPIMessages {
		var r schema.KPIMessages
		if _, err := r.UnmarshalMsg(m.Call(OpKPIDecode, put(m, b), n)); err != nil {
			t.Fatal(err)
		}
		return r
	}
	if !built(OpKPIDecode) {
		if r := call(in, 0); r.Error == nil || r.Error.Kind != "not_built" {
			t.Errorf("kpi_decode left out of this build: error %+v, want not_built", r.Error)
		}
		return
	}
	want, got := call(in, 0), call(serial, 1<<KPIFramingShift)
	if len(want.Messages) < 400 || len(got.Messages) != len(want.Messages) || got.SkippedBytes != 8 || got.Error != nil {
		t.Fatalf("serial: %d messages, %d bytes skipped, %v; .dlt %d messages", len(got.Messages), got.SkippedBytes, got.Error, len(want.Messages))
	}
	for i := range want.Messages {
		a, _ := want.Messages[i].MarshalMsg(nil)
		b, _ := got.Messages[i].MarshalMsg(nil)
		if !bytes.Equal(a, b) {
			t.Fatalf("message %d differs", i)
		}
	}
	if r := call(serial, 5|1<<KPIFramingShift); len(r.Messages) != 5 || !r.More {
		t.Errorf("serial, max 5: %d messages, more %v", len(r.Messages), r.More)
	}
	if r := call(in, 3<<KPIFramingShift); r.Error == nil || r.Error.Kind != "bad_input" {
		t.Errorf("framing 3: %+v", r.Error)
	}
}
