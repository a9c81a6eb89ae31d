package render

import (
	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/schema"
)

// AppendDLTDecode appends to dst the MessagePack DLTDecode of in, a DLT
// file (storage-header framing) resynchronised over damage as
// dlt.Scanner does (dlt_decode): each message written in place, its
// DLTMessage by DLTWriter and its dlt-convert line around the payload
// text that writer makes, so each message's texts are made once. Its tests hold its bytes equal to the generated MarshalMsg of the
// DLTDecode built as values.
func AppendDLTDecode(dst, in []byte) []byte {
	o := beginList(dst, 0x85, "\xa8messages", len(in)/64)
	s := dlt.NewScanner(in, dlt.Options{})
	// The texts of a message, reused from one message to the next.
	var w DLTWriter
	for s.Next() {
		o.b = w.appendMessage(o.b, s.Message(), o.n, true)
		o.n++
	}
	v := [8]uint64{uint64(s.Skipped()), uint64(s.Resyncs())}
	e := schema.Map{B: schema.AppendFields(o.end(s.Err()), "\xadskipped_bytes\xaeskipped_places", &v, schema.FieldInt|schema.FieldInt<<2)}
	e.Err("\xaaskip_error", schema.ErrorOf(s.SkipError()))
	return e.B
}
