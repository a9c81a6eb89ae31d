//go:build js

package main

import (
	"syscall/js"

	"github.com/perfwire/perfwire/schema"
	"github.com/perfwire/perfwire/wasm/abi"
	"github.com/perfwire/perfwire/wasm/internal/exports"
)

// mod holds the module's buffers and sessions, shared with the wasm
// exports of package exports: every function below runs through
// abi.Module, so the two modules and the two paths share one call
// table, one set of argument checks and one set of errors.
var mod = exports.Mod

// argNames name the kinds of abi.Arg in the exports table.
var argNames = [...]string{
	abi.ArgIn: "in", abi.ArgInN: "in,n", abi.ArgInOpen: "in:open", abi.ArgN: "n:open",
	abi.ArgSession: "session", abi.ArgSessionN: "session,n", abi.ArgSessionIn: "session,in",
}

// uint8Array is JavaScript's Uint8Array constructor, looked up once: each
// lookup returns a new js.Value that Go tracks with a finalizer until the
// garbage collector releases it.
var uint8Array = js.Global().Get("Uint8Array")

// serve installs globalThis.perfwire, one function per entry of
// abi.Calls plus close, and blocks; the calls run on the JavaScript
// event loop. perfwire.exports lists the calls as wasm exports ({js,
// wasm, args} each), from which perfwire.mjs builds the same functions
// over the exports, the fast path.
func serve() {
	object := js.Global().Get("Object")
	o := object.New()
	o.Set("abiVersion", abi.Version)
	table := make([]any, 0, len(abi.Calls))
	for op, c := range abi.Calls {
		o.Set(c.JS, function(abi.Op(op), c.Args))
		// An object set key by key, not a map literal: module size; see
		// wasm/size.
		e := object.New()
		e.Set("js", c.JS)
		e.Set("wasm", c.Export)
		e.Set("args", argNames[c.Args])
		table = append(table, e)
	}
	o.Set("exports", table)
	closeFn := js.FuncOf(func(_ js.Value, a []js.Value) any {
		if h, ok := u32Arg(a, 0); ok {
			mod.Free(h)
		}
		return nil
	})
	o.Set("close", closeFn)
	o.Set("kpiClose", closeFn)
	js.Global().Set("perfwire", o)
	select {}
}

// function is op's JavaScript function. Byte arguments are Uint8Arrays,
// copied into a module buffer for the call; numbers are u32. A function
// that opens a session returns its number (0 when an argument is bad);
// the others return the result as a Uint8Array, an error result when an
// argument is not what the call takes.
func function(op abi.Op, args abi.Arg) js.Func {
	return js.FuncOf(func(_ js.Value, a []js.Value) any {
		var x, y uint32 // the two u32 arguments of the wasip1 export
		var tmp uint32  // an input buffer to free after the call
		ok := true
		switch args {
		case abi.ArgIn, abi.ArgInN, abi.ArgInOpen:
			var b []byte
			if b, ok = bytesArg(a, 0); ok {
				tmp = mod.Keep(b)
				x = tmp
			}
			if ok && args == abi.ArgInN {
				y, ok = u32Arg(a, 1)
			}
		case abi.ArgN, abi.ArgSession:
			x, ok = u32Arg(a, 0)
		case abi.ArgSessionN:
			if x, ok = u32Arg(a, 0); ok {
				y, ok = u32Arg(a, 1)
			}
		case abi.ArgSessionIn:
			var b []byte
			if x, ok = u32Arg(a, 0); ok {
				if b, ok = bytesArg(a, 1); ok {
					tmp = mod.Keep(b)
					y = tmp
				}
			}
		}
		defer mod.Free(tmp)
		if op.Opens() {
			if !ok {
				return 0
			}
			// As an int: a boxed uint32 links runtime.convT32 for
			// this alone; the number is the same in JavaScript.
			return int(mod.Open(op, x, y))
		}
		var res []byte
		if ok {
			res = mod.Call(op, x, y)
		} else {
			res, _ = schema.Failure(schema.ErrBadInput).MarshalMsg(nil)
		}
		u := uint8Array.New(len(res))
		js.CopyBytesToJS(u, res)
		return u
	})
}

// bytesArg copies argument i, which must be a Uint8Array, into Go memory.
func bytesArg(a []js.Value, i int) ([]byte, bool) {
	if i >= len(a) || a[i].Type() != js.TypeObject || !a[i].InstanceOf(uint8Array) {
		return nil, false
	}
	b := make([]byte, a[i].Get("length").Int())
	js.CopyBytesToGo(b, a[i])
	return b, true
}

// u32Arg returns argument i, which must be an integer from 0 to 2³²-1;
// a number argument left out (undefined) is 0.
func u32Arg(a []js.Value, i int) (uint32, bool) {
	if i >= len(a) || a[i].Type() == js.TypeUndefined {
		return 0, true
	}
	if a[i].Type() != js.TypeNumber {
		return 0, false
	}
	f := a[i].Float()
	if f < 0 || f > 1<<32-1 || f != float64(int64(f)) {
		return 0, false
	}
	return uint32(f), true
}
