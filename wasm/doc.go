// Package wasm holds the WebAssembly builds of perfwire and the
// documentation of their ABI (ABI.md).
//
// wasm/abi implements the calls and their MessagePack result types (msgp
// generated code) once, natively testable; wasm/plugin exports them from a
// GOOS=wasip1 c-shared reactor with handle-based memory, wasm/js from a
// GOOS=js module on globalThis.perfwire; the browser viewer (viewer/)
// runs the js module in a Worker. Hosts copy results out of
// linear memory before their next call; the module never keeps views of
// host input beyond a call, except a KPI session's own reference.
//
// The wasip1 module's tests run it in wazero and compare every export
// with the same call compiled natively, on the real captures in testdata;
// the js module is checked in Node and the viewer in headless Chromium
// (conformance tests).
package wasm
