// Package wasm holds the WebAssembly builds of perfwire and the
// documentation of their ABI (ABI.md).
//
// wasm/abi implements the calls once, natively testable: abi.Module,
// the handle table and the one call table both modules run, which
// dispatches each call to its writer in package render; the results are
// the maps of package schema, which is also the schema of the CLI's
// --json output. wasm/plugin exports them from a GOOS=wasip1 c-shared
// reactor with handle-based memory, wasm/js from a GOOS=js module on
// globalThis.perfwire; the browser viewer (viewer/) runs the js module in
// a Worker, and `perfwire --plugin` runs the wasip1 module in wazero.
// Build tags kpi, pcp, mmv, dlt and archive give one-format modules; wasm/size builds
// every module and checks its size budget; wasm/hosts holds the two
// minimal hosts of ABI.md. Hosts copy results out of linear memory before
// their next call; the module never keeps views of host input beyond a
// call, except a KPI capture session's own reference.
//
// The wasip1 module's tests run it in wazero and compare every export
// with the same call compiled natively, on the real captures in testdata;
// the js module is checked in Node and the viewer in headless Chromium
// (conformance tests).
package wasm
