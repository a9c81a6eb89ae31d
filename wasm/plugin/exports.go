//go:build wasip1

package main

import (
	"runtime"
	"runtime/debug"

	"github.com/perfwire/perfwire/wasm/abi"
)

// A host sizes its instances by their linear memory, which never
// shrinks: collecting at 25% heap growth instead of Go's 100% keeps the
// memory of a module that has decoded a few inputs near its live data
// (TestMemoryBounded) for a little more collector time.
func init() { debug.SetGCPercent(25) }

// mod holds the instance's buffers and sessions. Every export is one
// line over it: the call table, the argument checks and the error
// results are abi.Module's, shared with the js module.
var mod = abi.NewModule()

// call runs op o and returns the handle of a new buffer holding its
// MessagePack result.
//
// A reactor's export runs on one goroutine that never blocks: without a
// yield the collector's background workers never get to finish a cycle,
// and linear memory grows call after call (TestMemoryBounded: 24 MB
// after 10,000 bad calls instead of 6 MB). The js module needs none: its
// memory levels off at 11 MB over 10,000 and 40,000 such calls, and the
// yield there only slowed kpiDecode in Node by a third.
func call(o abi.Op, a, b uint32) uint32 {
	defer runtime.Gosched()
	return mod.Keep(mod.Call(o, a, b))
}

//go:wasmexport abi_version
func abiVersion() uint32 { return abi.Version }

//go:wasmexport alloc
func alloc(n uint32) uint32 { return mod.Alloc(n) }

// bufPtr returns where buffer h starts in linear memory, or 0 for a bad
// handle.
//
//go:wasmexport buf_ptr
func bufPtr(h uint32) *byte {
	b, ok := mod.Buffer(h)
	if !ok {
		return nil
	}
	return &b[:1][0]
}

//go:wasmexport buf_len
func bufLen(h uint32) uint32 {
	b, _ := mod.Buffer(h)
	return uint32(len(b))
}

// free releases a buffer or a session; unknown handles are ignored.
//
//go:wasmexport free
func free(h uint32) { mod.Free(h) }

//go:wasmexport kpi_decode
func kpiDecode(in, max uint32) uint32 { return call(abi.OpKPIDecode, in, max) }

//go:wasmexport kpi_open
func kpiOpen(in uint32) uint32 { return mod.Open(abi.OpKPIOpen, in, 0) }

//go:wasmexport kpi_step
func kpiStep(s, max uint32) uint32 { return call(abi.OpKPIStep, s, max) }

//go:wasmexport kpi_table
func kpiTable(s uint32) uint32 { return call(abi.OpKPITable, s, 0) }

//go:wasmexport kpi_stream
func kpiStream(framing uint32) uint32 { return mod.Open(abi.OpKPIStream, framing, 0) }

//go:wasmexport kpi_feed
func kpiFeed(s, in uint32) uint32 { return call(abi.OpKPIFeed, s, in) }

//go:wasmexport kpi_cut
func kpiCut(s uint32) uint32 { return call(abi.OpKPICut, s, 0) }

//go:wasmexport kpi_end
func kpiEnd(s uint32) uint32 { return call(abi.OpKPIEnd, s, 0) }

//go:wasmexport pdu_decode
func pduDecode(in, limit uint32) uint32 { return call(abi.OpPDUDecode, in, limit) }

//go:wasmexport pdu_stream
func pduStream(limit uint32) uint32 { return mod.Open(abi.OpPDUStream, limit, 0) }

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
func archiveOpen(in uint32) uint32 { return mod.Open(abi.OpArchiveOpen, in, 0) }

//go:wasmexport archive_next
func archiveNext(s, max uint32) uint32 { return call(abi.OpArchiveNext, s, max) }
