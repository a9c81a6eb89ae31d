// Package render writes the results of perfwire's decoders as the bytes
// of package schema: in-place writers that turn each format's views (PDU
// bodies and streams, event arrays, label sets, KPI messages, KPI
// sessions' steps and tables, DLT messages, MMV files and served values,
// archive records) into the MessagePack maps schema declares, without
// building schema values first. The WebAssembly calls (wasm/abi) run
// them, and the CLI (cmd/perfwire) prints their bytes as JSON, so a
// result has one writer: AppendPDU, AppendPDUs, PDUSession,
// AppendEvents, AppendLabels, AppendLabelSet, AppendKPIMessages,
// AppendKPIMessage, KPISession, AppendDLTDecode, DLTWriter.AppendMessage,
// AppendMMV, AppendMMVServe, AppendArchiveRecord, ArchiveSession.
//
// Writing in place rather than marshalling schema values costs the
// WebAssembly modules less code and the calls fewer allocations (see
// wasm/size). Each writer's tests hold its bytes equal to the schema
// types' generated MarshalMsg of the same content, built as values by
// reference builders kept in the tests (*_ref_test.go), on the captures
// and on damaged copies of them. A writer never panics on bad input:
// failures travel in the result's error key.
//
// Allocation and lifetime: results own their memory (byte fields are
// copies, not views into the input), so a caller may reuse its input
// buffer at once. A KPISession keeps a reference to its input for as
// long as it lives, an ArchiveSession its files.
package render
