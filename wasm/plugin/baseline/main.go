//go:build wasip1 || js

// Command baseline is the size yardstick of wasm/plugin and wasm/js: a
// module (a wasip1 reactor, or a js module) with the same memory exports,
// whose only call marshals a fixed map with the msgp runtime. The
// difference between it and a plugin module is what perfwire's own code
// costs (bench/RESULTS.md).
package main

import "github.com/tinylib/msgp/msgp"

func main() {}

var buffers = map[uint32][]byte{}

//go:wasmexport alloc
func alloc(n uint32) uint32 {
	h := uint32(len(buffers) + 1)
	buffers[h] = make([]byte, n)
	return h
}

//go:wasmexport buf_ptr
func bufPtr(h uint32) *byte {
	b := buffers[h]
	if cap(b) == 0 {
		return nil
	}
	return &b[:1][0]
}

//go:wasmexport echo
func echo(h uint32) uint32 {
	b := msgp.AppendMapHeader(nil, 1)
	b = msgp.AppendString(b, "echo")
	b = msgp.AppendBytes(b, buffers[h])
	buffers[h] = b
	return uint32(len(b))
}
