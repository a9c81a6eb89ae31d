package abi

import (
	"unicode/utf8"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/internal/rfc3339"
	"github.com/tinylib/msgp/msgp"
)

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

// dltDecodeCall is dlt_decode's result, written in place into the
// module's buffer when it is marshalled.
type dltDecodeCall struct{ in []byte }

func (c *dltDecodeCall) MarshalMsg(b []byte) ([]byte, error) { return AppendDLTDecode(b, c.in), nil }

// AppendDLTDecode appends to dst the MessagePack DLTDecode of
// DecodeDLT(in), each message written in place (dlt_decode): no
// DLTDecoded, DLTMessage or DLTArg values and their marshalers, and each
// message's payload text made once, not three times (issue 18).
func AppendDLTDecode(dst, in []byte) []byte {
	o := beginList(dst, 0x85, "\xa8messages", len(in)/64)
	s := dlt.NewScanner(in, dlt.Options{})
	// The texts of a message, reused from one message to the next.
	var w dltTexts
	for s.Next() {
		o.b = w.appendDecoded(o.b, s.Message(), o.n)
		o.n++
	}
	v := [8]uint64{uint64(s.Skipped()), uint64(s.Resyncs())}
	e := enc{b: appendFields(o.end(s.Err()), "\xadskipped_bytes\xaeskipped_places", &v, fieldInt|fieldInt<<2)}
	e.err("\xaaskip_error", ErrorOf(s.SkipError()))
	return e.b
}

// dltTexts holds the buffers a message's texts are made in.
type dltTexts struct{ line, payload, arg, args []byte }

// appendDecoded appends NewDLTDecoded(m, index)'s MessagePack.
func (w *dltTexts) appendDecoded(b []byte, m dlt.Message, index int) []byte {
	w.line, _ = m.AppendText(w.line[:0])
	w.payload = m.AppendPayloadText(w.payload[:0])
	t, sub, ext := m.Type(), m.Subtype(), m.HasExtendedHeader()
	e := enc{b: append(b, 0x87)} // DLTDecoded's seven keys

	// The DLTMessage (NewDLTMessage's).
	f := beginMap(e.key("\xa7message"), 13)
	v := [8]uint64{uint64(index), uint64(m.Offset())}
	f.b, f.n = appendFields(f.b, "\xa5index\xa6offset", &v, fieldInt|fieldInt<<2), 2
	var sh dlt.StorageHeader
	if m.HasStorageHeader() {
		sh = m.StorageHeader()
		var buf [40]byte
		f.b = appendStr(f.key("\xa4time"), rfc3339.Append(buf[:0], int64(sh.Seconds), int64(sh.Microseconds)*1000, 6))
	}
	if ts, ok := m.Timestamp(); ok {
		f.uint("\xa9timestamp", uint64(ts))
	}
	f.uint("\xa7counter", uint64(m.Counter()))
	ecu, app, ctx := m.IDs()
	f.id("\xa3ecu", ecu, false)
	if ext {
		f.id("\xa4apid", app, true)
		f.id("\xa4ctid", ctx, true)
	}
	f.str("\xa4type", t.String())
	if name := dlt.SubtypeName(t, sub); name != "" {
		f.str("\xa7subtype", name)
	}
	verbose := m.Verbose()
	f.bool("\xa7verbose", verbose)
	if verbose {
		// The arguments up to the first that fails, made apart: the key
		// and the array only when there is one.
		args, n := w.args[:0], 0
		s := m.ArgScanner()
		for s.Next() {
			a := s.Arg()
			w.arg, _ = a.AppendText(w.arg[:0])
			name, unit := a.Name(), a.Unit()
			g := enc{b: append(args, 0x82)}
			g.str("\xa4kind", a.Kind().String())
			g.bytes("\xa4name", name, true)
			g.bytes("\xa4unit", unit, true)
			g.bytes("\xa4text", w.arg, false)
			g.b[len(args)] += byte(g.n - 2)
			args = g.b
			n++
		}
		if n > 0 {
			f.array("\xa4args", n)
			f.b = append(f.b, args...)
		}
		w.args = args
	}
	f.bytes("\xa7payload", w.payload, false)
	e.b = f.end()

	e.bin("\xa4text", w.line)
	v = [8]uint64{uint64(len(w.line) - 1 - len(w.payload)), 0, 0, uint64(sh.Seconds), uint64(sh.Microseconds)}
	if ext {
		v[1] = 1
		if t == dlt.TypeLog {
			v[2] = uint64(sub)
		}
	}
	e.b = appendFields(e.b, "\xaapayload_at\xa3ext\xa5level\xa3sec\xa4usec", &v,
		fieldInt|fieldBool<<2|fieldInt<<4|fieldUint<<6|fieldInt<<8)
	return e.b
}

// id writes k and id without its NUL padding, as a string: not when it
// is empty and omitEmpty is set.
//
//go:noinline
func (e *enc) id(k string, id dlt.ID, omitEmpty bool) {
	n := len(id)
	for n > 0 && id[n-1] == 0 {
		n--
	}
	e.bytes(k, id[:n], omitEmpty)
}

// bytes writes k and t as the string validText(t) is: not when t is
// empty and omitEmpty is set.
//
//go:noinline
func (e *enc) bytes(k string, t []byte, omitEmpty bool) {
	if len(t) == 0 && omitEmpty {
		return
	}
	e.put(k)
	if utf8.Valid(t) {
		e.b = appendStr(e.b, t)
		return
	}
	e.b = msgp.AppendString(e.b, validText(t))
}
