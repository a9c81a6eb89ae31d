package render

import (
	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/internal/rfc3339"
	"github.com/perfwire/perfwire/schema"
)

// DecodeDLT, NewDLTDecoded and NewDLTMessage are the references
// AppendDLTDecode and DLTWriter.AppendMessage are held to
// (TestAppendDLTDecode, TestDLTWriter): the DLTDecode, DLTDecoded and
// DLTMessage built as values, field by field, with dlt's own texts
// (Message.AppendText, Message.AppendPayloadText, Arg.AppendText), which
// the writers write in place with each text made once. They were the CLI's
// and dlt_decode's code before 2026-11-27.

// DecodeDLT decodes a DLT file (storage-header framing), resynchronising
// over damage as dlt.Scanner does: the dlt_decode call.
func DecodeDLT(in []byte) schema.DLTDecode {
	s := dlt.NewScanner(in, dlt.Options{})
	res := schema.DLTDecode{Messages: []schema.DLTDecoded{}}
	for i := 0; s.Next(); i++ {
		res.Messages = append(res.Messages, NewDLTDecoded(s.Message(), i))
	}
	res.SkippedBytes, res.SkippedPlaces = s.Skipped(), s.Resyncs()
	res.SkipError, res.Error = schema.ErrorOf(s.SkipError()), schema.ErrorOf(s.Err())
	return res
}

// NewDLTDecoded describes m, the index-th message of its input: its
// DLTMessage, its dlt-convert line and what the CLI's filters read.
func NewDLTDecoded(m dlt.Message, index int) schema.DLTDecoded {
	text, _ := m.AppendText(nil)
	d := schema.DLTDecoded{Message: NewDLTMessage(m, index), Text: text, PayloadAt: len(text) - 1 - len(m.AppendPayloadText(nil)),
		Ext: m.HasExtendedHeader()}
	if d.Ext && m.Type() == dlt.TypeLog {
		d.Level = int(m.Subtype())
	}
	if m.HasStorageHeader() {
		sh := m.StorageHeader()
		d.Sec, d.Usec = sh.Seconds, sh.Microseconds
	}
	return d
}

// NewDLTMessage describes m, the index-th message of its input. The
// payload text and each argument's text are dlt-convert's; a text that is
// not valid UTF-8 has its bad bytes replaced, as JSON needs.
func NewDLTMessage(m dlt.Message, index int) schema.DLTMessage {
	t, verbose := m.Type(), m.Verbose()
	d := schema.DLTMessage{
		Index: index, Offset: m.Offset(), Counter: m.Counter(), ECU: idText(m.ECU()),
		Type: t.String(), Verbose: verbose,
	}
	if m.HasStorageHeader() {
		sh := m.StorageHeader()
		d.Time = rfc3339Micro(int64(sh.Seconds), int64(sh.Microseconds))
	}
	if ts, ok := m.Timestamp(); ok {
		d.Timestamp = &ts
	}
	if m.HasExtendedHeader() {
		d.AppID, d.ContextID = idText(m.AppID()), idText(m.ContextID())
		d.Subtype = dlt.SubtypeName(t, m.Subtype())
	}
	if verbose {
		// Up to the first argument that fails: the payload text below
		// shows what dlt-convert shows.
		s := m.ArgScanner()
		for s.Next() {
			a := s.Arg()
			text, _ := a.AppendText(nil)
			d.Args = append(d.Args, schema.DLTArg{Kind: a.Kind().String(), Name: refValidText(a.Name()), Unit: refValidText(a.Unit()), Text: refValidText(text)})
		}
	}
	d.Payload = refValidText(m.AppendPayloadText(nil))
	return d
}

// idText is a DLT id without its NUL padding.
func idText(id dlt.ID) string {
	n := len(id)
	for n > 0 && id[n-1] == 0 {
		n--
	}
	return refValidText(id[:n])
}

// rfc3339Micro formats Unix seconds and microseconds as RFC 3339 UTC.
func rfc3339Micro(sec, us int64) string {
	return rfc3339.String(sec, us*1000, 6)
}
