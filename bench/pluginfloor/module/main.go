// Command module is the plugin figures' floor module, built by the
// bench harness as perfwire-js.wasm is built and never shipped:
//
//	GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' ./pluginfloor/module
//
// Run with Go's wasm_exec.js, it waits while wasm/js/bench_node.mjs
// calls its exports: floor_in(n) gives a buffer of n bytes for the
// input, as a plugin call copies its input into the module, and
// walk_kpi, walk_pdu and walk_mmv run package pluginfloor's walks over
// it, returning their checksums.
package main

func main() { serve() }
