// Package abi implements the calls of perfwire's WebAssembly plugins and
// the MessagePack result types they return, shared by the wasip1 reactor
// (wasm/plugin) and the js/wasm module (wasm/js) and callable natively,
// which is how the tests compare a module's answers with Go's.
//
// Every call takes bytes and returns MessagePack bytes; wasm/ABI.md
// documents the schema. The schema types live in the *types.go files;
// go generate writes their UnmarshalMsg with github.com/tinylib/msgp
// (the *_gen.go files) and their MarshalMsg with internal/encgen (the
// *_enc.go files), which writes msgp's bytes in a form several times
// smaller in WebAssembly. The large and hot results (PDU bodies and
// streams, KPI messages, KPI sessions' steps and tables, DLT messages,
// MMV files and served values, label sets, archive records) are
// written in place by Append functions (AppendPDU, AppendKPIMessages,
// AppendDLTDecode, DLTWriter.AppendMessage, AppendMMV, AppendMMVServe,
// AppendLabels, ArchiveSession.AppendNext, ...) rather than built as
// schema values and marshalled, which costs the modules less code and
// the calls fewer allocations (issue 18). The CLI (cmd/perfwire) prints
// the bytes of the same writers as JSON (AppendPDU,
// AppendArchiveRecord, AppendKPIMessage, DLTWriter.AppendMessage,
// AppendMMVServe, AppendLabelSet): such a result has one writer. The
// schema types stay the declaration of those results: each writer's
// tests hold its bytes equal to the types' generated MarshalMsg of the
// same content, built as values by reference builders kept in the tests
// (*_ref_test.go), on the captures and on damaged copies of them. A
// call never panics on bad input: failures travel in the result's error
// key.
//
// Allocation and lifetime: results own their memory (byte fields are
// copies, not views into the input), so a host may reuse its input buffer
// at once. A KPISession keeps a reference to its input for as long as it
// lives.
package abi
