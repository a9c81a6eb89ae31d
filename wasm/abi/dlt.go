package abi

import (
	"unicode/utf8"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/internal/rfc3339"
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
// hold the bytes equal to its text). One function for both: two cost
// the modules 0.6 KB more.
func (w *DLTWriter) appendMessage(b []byte, m dlt.Message, index int, decoded bool) []byte {
	line := w.line[:0]
	var e enc
	if decoded {
		line = append(m.AppendHeaderText(line), " ["...)
		e.b = append(b, 0x87) // DLTDecoded's seven keys
		b = e.key("\xa7message")
	}
	at := len(line)
	t, sub, ext := m.Type(), m.Subtype(), m.HasExtendedHeader()
	f := beginMap(b, 13)
	v := [8]uint64{uint64(index), uint64(m.Offset())}
	f.b, f.n = appendFields(f.b, "\xa5index\xa6offset", &v, fieldInt|fieldInt<<2), 2
	sh := m.StorageHeader()
	if m.HasStorageHeader() {
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
		// The arguments up to the first that fails, written in place
		// after the key and a fixarray header: the count goes into the
		// header at the end, which grows to an array16 past 15
		// arguments, and the key and the header go when there is none.
		key := len(f.b)
		f.array("\xa4args", 0)
		at, n := len(f.b), 0
		s := m.ArgScanner()
		for s.Next() {
			a := s.Arg()
			text := len(line)
			line, _ = a.AppendText(line)
			name, unit := a.Name(), a.Unit()
			g := enc{b: append(f.b, 0x82)}
			g.str("\xa4kind", a.Kind().String())
			g.bytes("\xa4name", name, true)
			g.bytes("\xa4unit", unit, true)
			g.bytes("\xa4text", line[text:], false)
			g.b[len(f.b)] += byte(g.n - 2)
			f.b = g.b
			line = append(line, ' ')
			n++
		}
		switch {
		case n == 0:
			f.b, f.n = f.b[:key], f.n-1
		case n <= 15:
			f.b[at-1] += byte(n)
		default: // NOAR is a byte: an array16
			f.b = append(f.b, 0, 0)
			copy(f.b[at+2:], f.b[at:])
			f.b[at-1], f.b[at], f.b[at+1] = 0xdc, 0, byte(n)
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
	f.bytes("\xa7payload", line[at:], false)
	b = f.end()
	if decoded {
		e.b = b
		line = append(line, ']')
		e.bin("\xa4text", line)
		v = [8]uint64{uint64(at), 0, 0, uint64(sh.Seconds), uint64(sh.Microseconds)}
		if ext {
			v[1] = 1
			if t == dlt.TypeLog {
				v[2] = uint64(sub)
			}
		}
		b = appendFields(e.b, "\xaapayload_at\xa3ext\xa5level\xa3sec\xa4usec", &v,
			fieldInt|fieldBool<<2|fieldInt<<4|fieldUint<<6|fieldInt<<8)
	}
	w.line = line
	return b
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

// validText is b as a string, each byte of it that is not UTF-8 replaced
// by U+FFFD, as string([]rune(string(b))) and encoding/json do (the rune
// conversions cost a WebAssembly module 3 KB). Not inlined: its callers'
// copies would cost 1 KB each.
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
