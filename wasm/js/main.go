// Command js is perfwire's GOOS=js module for browsers and Node:
//
//	GOOS=js GOARCH=wasm go build -o perfwire-js.wasm ./wasm/js
//
// Run with Go's wasm_exec.js, it defines one global object, perfwire,
// whose functions take Uint8Arrays and return MessagePack results as
// Uint8Arrays (wasm/ABI.md), then waits for calls forever. Sessions are
// numbered; kpiClose ends one. Built with -tags kpi it has only the
// KPI calls, for the dlt-kpi viewer.
package main

func main() { serve() }
