//go:build wasip1 || js

// Package exports holds the WebAssembly exports of wasm/ABI.md, shared
// by the wasip1 reactor (wasm/plugin) and the js module (wasm/js), which
// import it for them. Memory crosses the boundary through handles: the
// host asks for a buffer with alloc, learns where it lies with buf_ptr
// (a pointer result, so no unsafe is needed on the Go side), writes its
// input there and passes the handle to a call; the call returns the
// handle of a MessagePack result buffer. The host never hands the module
// an address, so a wrong value can only be a bad handle, which is
// reported in the result like any other error.
//
// In the js module the exports are the fast path: a direct call costs
// well under a microsecond where a syscall/js function (the perfwire
// object) costs 10 µs or more, as it resumes Go's event loop; wasm/js's
// perfwire.mjs binds them under the perfwire object's names.
package exports

import (
	"github.com/perfwire/perfwire/wasm/abi"
)

// Mod holds the instance's buffers and sessions. Every export is one
// line over it: the call table, the argument checks and the error
// results are abi.Module's. The js module's perfwire object uses it too,
// so that a handle from either path is good on the other.
var Mod = abi.NewModule()

// call runs op o and returns the handle of a new buffer holding its
// MessagePack result, then yields where the host needs it.
func call(o abi.Op, a, b uint32) uint32 {
	defer yield()
	return Mod.CallKeep(o, a, b)
}

//go:wasmexport abi_version
func abiVersion() uint32 { return abi.Version }

//go:wasmexport alloc
func alloc(n uint32) uint32 { return Mod.Alloc(n) }

// bufPtr returns where buffer h starts in linear memory, or 0 for a bad
// handle.
//
//go:wasmexport buf_ptr
func bufPtr(h uint32) *byte {
	b, ok := Mod.Buffer(h)
	if !ok {
		return nil
	}
	return &b[:1][0]
}

//go:wasmexport buf_len
func bufLen(h uint32) uint32 {
	b, _ := Mod.Buffer(h)
	return uint32(len(b))
}

// free releases a buffer or a session; unknown handles are ignored.
//
//go:wasmexport free
func free(h uint32) { Mod.Free(h) }

//go:wasmexport kpi_decode
func kpiDecode(in, max uint32) uint32 { return call(abi.OpKPIDecode, in, max) }

//go:wasmexport kpi_open
func kpiOpen(in uint32) uint32 { return Mod.Open(abi.OpKPIOpen, in, 0) }

//go:wasmexport kpi_step
func kpiStep(s, max uint32) uint32 { return call(abi.OpKPIStep, s, max) }

//go:wasmexport kpi_table
func kpiTable(s uint32) uint32 { return call(abi.OpKPITable, s, 0) }

//go:wasmexport kpi_stream
func kpiStream(framing uint32) uint32 { return Mod.Open(abi.OpKPIStream, framing, 0) }

//go:wasmexport kpi_feed
func kpiFeed(s, in uint32) uint32 { return call(abi.OpKPIFeed, s, in) }

//go:wasmexport kpi_cut
func kpiCut(s uint32) uint32 { return call(abi.OpKPICut, s, 0) }

//go:wasmexport kpi_end
func kpiEnd(s uint32) uint32 { return call(abi.OpKPIEnd, s, 0) }

//go:wasmexport pdu_decode
func pduDecode(in, limit uint32) uint32 { return call(abi.OpPDUDecode, in, limit) }

//go:wasmexport pdu_stream
func pduStream(limit uint32) uint32 { return Mod.Open(abi.OpPDUStream, limit, 0) }

//go:wasmexport pdu_feed
func pduFeed(s, in uint32) uint32 { return call(abi.OpPDUFeed, s, in) }

//go:wasmexport pdu_end
func pduEnd(s uint32) uint32 { return call(abi.OpPDUEnd, s, 0) }

//go:wasmexport events_decode
func eventsDecode(in uint32) uint32 { return call(abi.OpEventsDecode, in, 0) }

//go:wasmexport labels_canon
func labelsCanon(in uint32) uint32 { return call(abi.OpLabelsCanon, in, 0) }

//go:wasmexport labels_merge
func labelsMerge(in uint32) uint32 { return call(abi.OpLabelsMerge, in, 0) }

//go:wasmexport mmv_read
func mmvRead(in, flags uint32) uint32 { return call(abi.OpMMVRead, in, flags) }

//go:wasmexport mmv_serve
func mmvServe(in uint32) uint32 { return call(abi.OpMMVServe, in, 0) }

//go:wasmexport dlt_decode
func dltDecode(in uint32) uint32 { return call(abi.OpDLTDecode, in, 0) }

//go:wasmexport archive_open
func archiveOpen(in uint32) uint32 { return Mod.Open(abi.OpArchiveOpen, in, 0) }

//go:wasmexport archive_next
func archiveNext(s, max uint32) uint32 { return call(abi.OpArchiveNext, s, max) }
