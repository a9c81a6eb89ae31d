package abi

import "github.com/perfwire/perfwire/dlt"

// DecodeDLT decodes a DLT file (storage-header framing), resynchronising
// over damage as dlt.Scanner does: the dlt_decode call.
func DecodeDLT(in []byte) DLTDecode {
	s := dlt.NewScanner(in, dlt.Options{})
	res := DLTDecode{Messages: []DLTDecoded{}}
	for i := 0; s.Next(); i++ {
		res.Messages = append(res.Messages, NewDLTDecoded(s.Message(), i))
	}
	res.SkippedBytes, res.SkippedPlaces = s.Skipped(), s.Resyncs()
	res.SkipError, res.Error = ErrorOf(s.SkipError()), ErrorOf(s.Err())
	return res
}

// NewDLTDecoded describes m, the index-th message of its input, for the
// CLI: its DLTMessage, its dlt-convert line and what the filters read.
func NewDLTDecoded(m dlt.Message, index int) DLTDecoded {
	text, _ := m.AppendText(nil)
	d := DLTDecoded{Message: NewDLTMessage(m, index), Text: text, PayloadAt: len(text) - 1 - len(m.AppendPayloadText(nil)),
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
