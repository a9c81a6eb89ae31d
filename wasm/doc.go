// Package wasm holds the WebAssembly viewer-plugin builds of perfwire and
// the documentation of their ABI.
//
// A plugin is a wasip1 reactor or a js/wasm module that exports functions
// taking a byte range of the host's input in linear memory and returning
// decoded results; the host copies results before its next call.
package wasm
