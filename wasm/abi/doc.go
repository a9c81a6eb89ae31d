// Package abi implements the module ABI of perfwire's WebAssembly
// plugins: the ops (Calls, one entry per export), the handles of buffers
// and sessions, the buffers' recycling and the dispatch of each call to
// the render writer that answers it. It is shared by the wasip1 reactor
// (wasm/plugin) and the js/wasm module (wasm/js) and callable natively,
// which is how the tests compare a module's answers with Go's.
//
// Every call takes bytes and returns MessagePack bytes, the maps of
// package schema; wasm/ABI.md documents the exports. Build tags kpi, pcp,
// mmv, dlt and archive give one-format builds, whose other ops answer
// the error kind not_built.
// A call never panics on bad input: failures travel in the result's
// error key.
//
// Allocation and lifetime: results own their memory, so a host may reuse
// its input buffer at once. A session keeps a reference to the input it
// was opened on (kpi_open, archive_open) for as long as it lives.
package abi
