package abi

import (
	"unicode/utf8"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/internal/rfc3339"
)

// NewDLTMessage describes m, the index-th message of its input. The
// payload text and each argument's text are dlt-convert's; a text that is
// not valid UTF-8 has its bad bytes replaced, as JSON needs.
func NewDLTMessage(m dlt.Message, index int) DLTMessage {
	t, verbose := m.Type(), m.Verbose()
	d := DLTMessage{
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
		// shows what dlt-convert shows. (A scanner, not Args: a range over
		// the iterator made a function of this body.)
		s := m.ArgScanner()
		for s.Next() {
			a := s.Arg()
			text, _ := a.AppendText(nil)
			d.Args = append(d.Args, DLTArg{Kind: a.Kind().String(), Name: validText(a.Name()), Unit: validText(a.Unit()), Text: validText(text)})
		}
	}
	d.Payload = validText(m.AppendPayloadText(nil))
	return d
}

// idText is a DLT id without its NUL padding.
func idText(id dlt.ID) string {
	n := len(id)
	for n > 0 && id[n-1] == 0 {
		n--
	}
	return validText(id[:n])
}

// validText is b as a string, each byte of it that is not UTF-8 replaced
// by U+FFFD, as string([]rune(string(b))) and encoding/json do (the rune
// conversions cost a WebAssembly module 3 KB). Not inlined:
// NewDLTMessage calls it five times, each copy costing 1 KB.
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

// rfc3339Micro formats Unix seconds and microseconds as RFC 3339 UTC.
func rfc3339Micro(sec, us int64) string {
	return rfc3339.String(sec, us*1000, 6)
}
