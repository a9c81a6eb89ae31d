//go:build js

package main

import (
	"errors"
	"syscall/js"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/wasm/abi"
	"github.com/tinylib/msgp/msgp"
)

var (
	sessions = map[int]*abi.KPISession{}
	last     int
	// errInternal reports a panic caught at the boundary (the SDK
	// promises none); an exception would leave the Go side unusable.
	errInternal = errors.New("abi: internal error")
)

// withSession wraps a call on the session whose handle is the first
// argument; an unknown handle is an error result, not an exception.
func withSession(call func(s *abi.KPISession, a []js.Value) msgp.Marshaler) js.Func {
	return fn(func(a []js.Value) msgp.Marshaler {
		s, ok := sessions[intArg(a, 0)]
		if !ok {
			return abi.Failure(abi.ErrBadHandle)
		}
		return call(s, a)
	})
}

// serve installs globalThis.perfwire and blocks; the calls run on the
// JavaScript event loop.
func serve() {
	o := js.Global().Get("Object").New()
	o.Set("abiVersion", abi.Version)
	o.Set("kpiDecode", fn(func(a []js.Value) msgp.Marshaler {
		r := abi.DecodeKPI(bytesArg(a, 0), intArg(a, 1))
		return &r
	}))
	o.Set("kpiOpen", js.FuncOf(func(_ js.Value, a []js.Value) any {
		last++
		sessions[last] = abi.NewKPISession(bytesArg(a, 0))
		return last
	}))
	o.Set("kpiStep", withSession(func(s *abi.KPISession, a []js.Value) msgp.Marshaler {
		r := s.Step(intArg(a, 1))
		return &r
	}))
	o.Set("kpiTable", withSession(func(s *abi.KPISession, a []js.Value) msgp.Marshaler {
		r := s.Table()
		return &r
	}))
	o.Set("kpiStream", js.FuncOf(func(_ js.Value, a []js.Value) any {
		last++
		sessions[last] = abi.NewKPIStream(dlt.Framing(min(intArg(a, 0), 255)))
		return last
	}))
	o.Set("kpiFeed", withSession(func(s *abi.KPISession, a []js.Value) msgp.Marshaler {
		r := s.Feed(bytesArg(a, 1))
		return &r
	}))
	o.Set("kpiEnd", withSession(func(s *abi.KPISession, a []js.Value) msgp.Marshaler {
		r := s.End()
		return &r
	}))
	o.Set("kpiClose", js.FuncOf(func(_ js.Value, a []js.Value) any {
		delete(sessions, intArg(a, 0))
		return nil
	}))
	setFormats(o)
	js.Global().Set("perfwire", o)
	select {}
}

// fn wraps a call: its result is marshalled into a new Uint8Array, and a
// panic becomes an error result instead of a JavaScript exception.
func fn(call func(args []js.Value) msgp.Marshaler) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
		defer func() {
			if recover() != nil {
				out = toJS(abi.Failure(errInternal))
			}
		}()
		return toJS(call(args))
	})
}

func toJS(m msgp.Marshaler) js.Value {
	b, err := m.MarshalMsg(nil)
	if err != nil {
		b, _ = abi.Failure(err).MarshalMsg(nil)
	}
	u := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u, b)
	return u
}

// bytesArg copies argument i, a Uint8Array, into Go memory; anything else
// is empty input, which every call reports as its own error.
func bytesArg(a []js.Value, i int) []byte {
	if i >= len(a) || a[i].Type() != js.TypeObject || !a[i].InstanceOf(js.Global().Get("Uint8Array")) {
		return nil
	}
	b := make([]byte, a[i].Get("length").Int())
	js.CopyBytesToGo(b, a[i])
	return b
}

// intArg returns argument i as an int, 0 when it is not a number.
func intArg(a []js.Value, i int) int {
	if i >= len(a) || a[i].Type() != js.TypeNumber {
		return 0
	}
	return a[i].Int()
}
