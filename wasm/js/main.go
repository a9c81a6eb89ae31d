// Command js is perfwire's GOOS=js module for browsers and Node:
//
//	GOOS=js GOARCH=wasm go build -o perfwire-js.wasm ./wasm/js
//
// Run with Go's wasm_exec.js, it defines one global object, perfwire,
// whose functions take Uint8Arrays and return MessagePack results as
// Uint8Arrays (wasm/ABI.md), then waits for calls forever. Sessions are
// numbered; kpiClose ends one. It also has the wasip1 module's wasm
// exports (package wasm/internal/exports), over which perfwire.mjs builds
// the same functions without syscall/js's cost per call. Built with
// -tags kpi (pcp, mmv, dlt, archive) it has only that format's calls.
package main

func main() { serve() }
