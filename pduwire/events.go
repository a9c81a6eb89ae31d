package pduwire

import "github.com/perfwire/perfwire/internal/wire"

// eventKind is the kind of an event array failure inside a value: it
// matches errEvent and eventrec's kind, and reads as one line
// ("bad event record array: bad count"), where errors.Join would break it.
// As a *wire.Kind it is errEvent, so the wasm ABI reports every event
// array failure inside a PDU with errEvent's code. Its methods have
// pointer receivers, as value receivers also get pointer wrappers, and
// it is not comparable, for no equality function (module size; see
// wasm/size).
type eventKind struct {
	_     [0]func()
	inner error
}

func (k *eventKind) Error() string        { return errEvent.Error() + ": " + k.inner.Error() }
func (k *eventKind) Is(target error) bool { return target == errEvent }
func (k *eventKind) Unwrap() error        { return k.inner }

func (k *eventKind) As(target any) bool {
	if p, ok := target.(**wire.Kind); ok {
		*p = errEvent
		return true
	}
	return false
}
