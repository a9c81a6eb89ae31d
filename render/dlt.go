package render

import (
	"unicode/utf8"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/internal/rfc3339"
	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

// DLTWriter writes DLT messages' MessagePack in place, reusing its
// buffers from one message to the next: the one writer of the DLTMessage
// results, `perfwire dlt --json`'s lines and dlt_decode's messages. The
// zero DLTWriter is ready to use; it is not safe for concurrent use.
type DLTWriter struct {
	line []byte // the payload text, after the head of the line for dlt_decode
}

// AppendMessage appends to b the MessagePack DLTMessage of m, the
// index-th message of its input: its headers, each verbose argument up
// to the first that fails with its dlt-convert text, and the payload
// text dlt-convert -a prints in brackets. A text that is not valid UTF-8
// has its bad bytes replaced by U+FFFD, as JSON needs. Its tests hold its
// bytes equal to the generated MarshalMsg of the DLTMessage built field
// by field.
func (w *DLTWriter) AppendMessage(b []byte, m dlt.Message, index int) []byte {
	return w.appendMessage(b, m, index, false)
}

// appendMessage is AppendMessage, or with decoded dlt_decode's
// DLTDecoded around the DLTMessage: then the message's line, made of the
// head (dlt.Message's AppendHeaderText), " [", the payload text and "]",
// which is Message.AppendText's line, and what the CLI's filters read.
// The payload text is made once, from the arguments' texts as they are
// written: Message.AppendPayloadText joins them by single spaces and
// ends with one more when an argument failed after the first (the tests
// hold the bytes equal to its text). One function for both: module
// size.
func (w *DLTWriter) appendMessage(b []byte, m dlt.Message, index int, decoded bool) []byte {
	line := w.line[:0]
	var e schema.Map
	if decoded {
		line = append(m.AppendHeaderText(line), " ["...)
		e.B = append(b, 0x87) // DLTDecoded's seven keys
		b = e.Key("\xa7message")
	}
	at := len(line)
	t, sub, ext := m.Type(), m.Subtype(), m.HasExtendedHeader()
	f := schema.BeginMap(b, 13)
	v := [8]uint64{uint64(index), uint64(m.Offset())}
	f.B, f.N = schema.AppendFields(f.B, "\xa5index\xa6offset", &v, schema.FieldInt|schema.FieldInt<<2), 2
	sh := m.StorageHeader()
	if m.HasStorageHeader() {
		var buf [40]byte
		f.B = schema.AppendStr(f.Key("\xa4time"), rfc3339.Append(buf[:0], int64(sh.Seconds), int64(sh.Microseconds)*1000, 6))
	}
	if ts, ok := m.Timestamp(); ok {
		f.Uint("\xa9timestamp", uint64(ts))
	}
	f.Uint("\xa7counter", uint64(m.Counter()))
	ecu, app, ctx := m.IDs()
	mapID(&f, "\xa3ecu", ecu, false)
	if ext {
		mapID(&f, "\xa4apid", app, true)
		mapID(&f, "\xa4ctid", ctx, true)
	}
	f.Str("\xa4type", t.String())
	if name := dlt.SubtypeName(t, sub); name != "" {
		f.Str("\xa7subtype", name)
	}
	verbose := m.Verbose()
	f.Bool("\xa7verbose", verbose)
	if verbose {
		// The arguments up to the first that fails, written in place
		// after the key and a fixarray header: the count goes into the
		// header at the end, which grows to an array16 past 15
		// arguments, and the key and the header go when there is none.
		key := len(f.B)
		f.Array("\xa4args", 0)
		at, n := len(f.B), 0
		s := m.ArgScanner()
		for s.Next() {
			a := s.Arg()
			text := len(line)
			line, _ = a.AppendText(line)
			name, unit := a.Name(), a.Unit()
			g := schema.Map{B: append(f.B, 0x82)}
			g.Str("\xa4kind", a.Kind().String())
			mapBytes(&g, "\xa4name", name, true)
			mapBytes(&g, "\xa4unit", unit, true)
			mapBytes(&g, "\xa4text", line[text:], false)
			g.B[len(f.B)] += byte(g.N - 2)
			f.B = g.B
			line = append(line, ' ')
			n++
		}
		switch {
		case n == 0:
			f.B, f.N = f.B[:key], f.N-1
		case n <= 15:
			f.B[at-1] += byte(n)
		default: // NOAR is a byte: an array16
			f.B = append(f.B, 0, 0)
			copy(f.B[at+2:], f.B[at:])
			f.B[at-1], f.B[at], f.B[at+1] = 0xdc, 0, byte(n)
		}
		// A space follows each argument's text; the last stays when an
		// argument failed after the first, as dlt-convert writes the
		// space before the argument it fails on.
		if n > 0 && s.Remaining() == 0 {
			line = line[:len(line)-1]
		}
	} else {
		line = m.AppendPayloadText(line)
	}
	mapBytes(&f, "\xa7payload", line[at:], false)
	b = f.End()
	if decoded {
		e.B = b
		line = append(line, ']')
		e.Bin("\xa4text", line)
		v = [8]uint64{uint64(at), 0, 0, uint64(sh.Seconds), uint64(sh.Microseconds)}
		if ext {
			v[1] = 1
			if t == dlt.TypeLog {
				v[2] = uint64(sub)
			}
		}
		b = schema.AppendFields(e.B, "\xaapayload_at\xa3ext\xa5level\xa3sec\xa4usec", &v,
			schema.FieldInt|schema.FieldBool<<2|schema.FieldInt<<4|schema.FieldUint<<6|schema.FieldInt<<8)
	}
	w.line = line
	return b
}

// mapID writes k and id without its NUL padding, as a string: not when it
// is empty and omitEmpty is set.
//
//go:noinline
func mapID(e *schema.Map, k string, id dlt.ID, omitEmpty bool) {
	n := len(id)
	for n > 0 && id[n-1] == 0 {
		n--
	}
	mapBytes(e, k, id[:n], omitEmpty)
}

// mapBytes writes k and t as the string validText(t) is: not when t is
// empty and omitEmpty is set.
//
//go:noinline
func mapBytes(e *schema.Map, k string, t []byte, omitEmpty bool) {
	if len(t) == 0 && omitEmpty {
		return
	}
	e.Put(k)
	if utf8.Valid(t) {
		e.B = schema.AppendStr(e.B, t)
		return
	}
	e.B = msgp.AppendString(e.B, validText(t))
}

// validText is b as a string, each byte of it that is not UTF-8 replaced
// by U+FFFD, as string([]rune(string(b))) and encoding/json do, without
// the rune conversions, and kept out of line: module size.
//
//go:noinline
func validText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	r := make([]byte, 0, len(b)+8)
	for rest := b; len(rest) > 0; {
		c, n := utf8.DecodeRune(rest)
		r = utf8.AppendRune(r, c)
		rest = rest[n:]
	}
	return string(r)
}
