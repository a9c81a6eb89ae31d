//go:build wasip1

package main

import (
	"errors"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/wasm/abi"
	"github.com/tinylib/msgp/msgp"
)

// errInternal reports a panic caught at the boundary; the SDK promises
// none, and a trap would take the host's instance down with it.
var errInternal = errors.New("abi: internal error")

// op names the call an export makes. Every call goes through one
// dispatch switch rather than a closure per export: closures, each with
// its own deferred recover, cost the module about 8 KB.
type op uint8

const (
	opKPIDecode op = iota
	opLabelsCanon
	opLabelsMerge
	opEventsDecode
	opPDUDecode
	opMMVRead
	// The session calls: h is a session handle.
	opKPIStep
	opKPITable
	opKPIFeed
	opKPIEnd
)

// call runs o on handle h with argument arg, marshals the result into a
// new buffer and returns its handle. A panic becomes an error result
// instead of a trap.
func call(o op, h, arg uint32) (r uint32) {
	defer func() {
		if recover() != nil {
			b, _ := abi.Failure(errInternal).MarshalMsg(nil)
			r = keep(b)
		}
	}()
	b, err := dispatch(o, h, arg).MarshalMsg(nil)
	if err != nil {
		b, _ = abi.Failure(err).MarshalMsg(nil)
	}
	return keep(b)
}

// dispatch makes call o; an unknown buffer or session handle gives the
// bad-handle error result.
func dispatch(o op, h, arg uint32) msgp.Marshaler {
	if o >= opKPIStep {
		k, ok := sessions[h]
		if !ok {
			return abi.Failure(abi.ErrBadHandle)
		}
		switch o {
		case opKPIStep:
			r := k.Step(int(arg))
			return &r
		case opKPITable:
			r := k.Table()
			return &r
		case opKPIEnd:
			r := k.End()
			return &r
		}
		b, ok := buffers[arg]
		if !ok {
			return abi.Failure(abi.ErrBadHandle)
		}
		r := k.Feed(b)
		return &r
	}
	b, ok := buffers[h]
	if !ok {
		return abi.Failure(abi.ErrBadHandle)
	}
	switch o {
	case opKPIDecode:
		r := abi.DecodeKPI(b, int(arg))
		return &r
	case opLabelsCanon:
		r := abi.CanonLabels(b)
		return &r
	case opLabelsMerge:
		r := abi.MergeLabels(b)
		return &r
	case opEventsDecode:
		r := abi.DecodeEvents(b)
		return &r
	case opPDUDecode:
		r := abi.DecodePDUs(b)
		return &r
	}
	r := abi.ReadMMV(b, arg&1 != 0)
	return &r
}

//go:wasmexport abi_version
func abiVersion() uint32 { return abi.Version }

//go:wasmexport alloc
func alloc(n uint32) uint32 {
	if n > maxAlloc {
		return 0
	}
	return keep(make([]byte, n))
}

// bufPtr returns where buffer h starts in linear memory, or 0 for a bad
// handle. An empty buffer gets a one-byte backing array so that its
// address is real.
//
//go:wasmexport buf_ptr
func bufPtr(h uint32) *byte {
	b, ok := buffers[h]
	if !ok {
		return nil
	}
	if cap(b) == 0 {
		b = make([]byte, 0, 1)
		buffers[h] = b
	}
	return &b[:1][0]
}

//go:wasmexport buf_len
func bufLen(h uint32) uint32 { return uint32(len(buffers[h])) }

// free releases a buffer or a session; unknown handles are ignored.
//
//go:wasmexport free
func free(h uint32) {
	delete(buffers, h)
	delete(sessions, h)
}

//go:wasmexport kpi_decode
func kpiDecode(in, max uint32) uint32 { return call(opKPIDecode, in, max) }

// kpiOpen starts a session over buffer in and returns its handle, or 0
// when in is not a buffer handle. The session keeps the buffer's bytes
// even if the host frees the handle.
//
//go:wasmexport kpi_open
func kpiOpen(in uint32) uint32 {
	b, ok := buffers[in]
	if !ok {
		return 0
	}
	h := newHandle()
	sessions[h] = abi.NewKPISession(b)
	return h
}

//go:wasmexport kpi_step
func kpiStep(s, max uint32) uint32 { return call(opKPIStep, s, max) }

//go:wasmexport kpi_table
func kpiTable(s uint32) uint32 { return call(opKPITable, s, 0) }

//go:wasmexport labels_canon
func labelsCanon(in uint32) uint32 { return call(opLabelsCanon, in, 0) }

//go:wasmexport labels_merge
func labelsMerge(in uint32) uint32 { return call(opLabelsMerge, in, 0) }

//go:wasmexport events_decode
func eventsDecode(in uint32) uint32 { return call(opEventsDecode, in, 0) }

//go:wasmexport pdu_decode
func pduDecode(in uint32) uint32 { return call(opPDUDecode, in, 0) }

// mmvRead reads buffer in as an MMV file image; flags bit 0 selects
// big-endian.
//
//go:wasmexport mmv_read
func mmvRead(in, flags uint32) uint32 { return call(opMMVRead, in, flags) }

// kpiStream starts a session fed piece by piece by kpi_feed; framing is
// 0 (storage headers, as in .dlt files), 1 (serial) or 2 (bare).
//
//go:wasmexport kpi_stream
func kpiStream(framing uint32) uint32 {
	h := newHandle()
	sessions[h] = abi.NewKPIStream(dlt.Framing(min(framing, 255)))
	return h
}

//go:wasmexport kpi_feed
func kpiFeed(s, in uint32) uint32 { return call(opKPIFeed, s, in) }

//go:wasmexport kpi_end
func kpiEnd(s uint32) uint32 { return call(opKPIEnd, s, 0) }
