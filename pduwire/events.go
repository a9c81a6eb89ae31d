package pduwire

import (
	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pcp"
)

// checkEvents validates an event-record array value block (header word
// included) at PDU offset off, so that a RESULT which passes ParseResult
// holds only well-formed arrays. Package eventrec owns the rules; here
// they run as libpcp applies them (Lenient), plus the block's 4-byte size.
// A failure matches both ErrEvent and eventrec's own kind.
func checkEvents(blk []byte, off int, t pcp.Type) error {
	if len(blk)%4 != 0 {
		return fail("event.ea_len", off, ErrEvent)
	}
	_, err := eventrec.Parse(blk, eventrec.Options{Type: t, Lenient: true, Base: off})
	if err == nil {
		return nil
	}
	pe, ok := err.(*eventrec.ParseError) // Parse returns it itself, never wrapped
	if !ok {
		return fail("event", off, ErrEvent)
	}
	return &wire.Error{Format: "pduwire", Field: "event." + pe.Field, Offset: pe.Offset, Err: &eventKind{inner: pe.Err}}
}

// eventKind is the kind of an event array failure inside a value: it
// matches ErrEvent and eventrec's kind, and reads as one line
// ("bad event record array: bad count"), where errors.Join would break it.
// As a *wire.Kind it is ErrEvent, so the wasm ABI reports every event
// array failure inside a PDU with ErrEvent's code. Its methods have
// pointer receivers: value receivers also got pointer wrappers, 1.5 KB
// of WebAssembly (issue 18); it is not comparable, for no equality
// function.
type eventKind struct {
	_     [0]func()
	inner error
}

func (k *eventKind) Error() string        { return ErrEvent.Error() + ": " + k.inner.Error() }
func (k *eventKind) Is(target error) bool { return target == ErrEvent }
func (k *eventKind) Unwrap() error        { return k.inner }

func (k *eventKind) As(target any) bool {
	if p, ok := target.(**wire.Kind); ok {
		*p = ErrEvent
		return true
	}
	return false
}
