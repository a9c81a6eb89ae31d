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

// result marshals the value f returns into a new buffer and returns its
// handle. A panic inside f becomes an error result instead of a trap.
func result(f func() msgp.Marshaler) (h uint32) {
	defer func() {
		if recover() != nil {
			b, _ := abi.Failure(errInternal).MarshalMsg(nil)
			h = keep(b)
		}
	}()
	b, err := f().MarshalMsg(nil)
	if err != nil {
		b, _ = abi.Failure(err).MarshalMsg(nil)
	}
	return keep(b)
}

// input returns the bytes of buffer h.
func input(h uint32) ([]byte, bool) {
	b, ok := buffers[h]
	return b, ok
}

func badHandle() msgp.Marshaler { return abi.Failure(abi.ErrBadHandle) }

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
func kpiDecode(in, max uint32) uint32 {
	return result(func() msgp.Marshaler {
		b, ok := input(in)
		if !ok {
			return badHandle()
		}
		r := abi.DecodeKPI(b, int(max))
		return &r
	})
}

// kpiOpen starts a session over buffer in and returns its handle, or 0
// when in is not a buffer handle. The session keeps the buffer's bytes
// even if the host frees the handle.
//
//go:wasmexport kpi_open
func kpiOpen(in uint32) uint32 {
	b, ok := input(in)
	if !ok {
		return 0
	}
	h := newHandle()
	sessions[h] = abi.NewKPISession(b)
	return h
}

// sessionResult runs call on the KPI session with handle s; an unknown
// handle gives the bad-handle error result.
func sessionResult(s uint32, call func(k *abi.KPISession) msgp.Marshaler) uint32 {
	return result(func() msgp.Marshaler {
		k, ok := sessions[s]
		if !ok {
			return badHandle()
		}
		return call(k)
	})
}

//go:wasmexport kpi_step
func kpiStep(s, max uint32) uint32 {
	return sessionResult(s, func(k *abi.KPISession) msgp.Marshaler {
		r := k.Step(int(max))
		return &r
	})
}

//go:wasmexport kpi_table
func kpiTable(s uint32) uint32 {
	return sessionResult(s, func(k *abi.KPISession) msgp.Marshaler {
		r := k.Table()
		return &r
	})
}

//go:wasmexport labels_canon
func labelsCanon(in uint32) uint32 {
	return result(func() msgp.Marshaler {
		b, ok := input(in)
		if !ok {
			return badHandle()
		}
		r := abi.CanonLabels(b)
		return &r
	})
}

//go:wasmexport labels_merge
func labelsMerge(in uint32) uint32 {
	return result(func() msgp.Marshaler {
		b, ok := input(in)
		if !ok {
			return badHandle()
		}
		r := abi.MergeLabels(b)
		return &r
	})
}

//go:wasmexport events_decode
func eventsDecode(in uint32) uint32 {
	return result(func() msgp.Marshaler {
		b, ok := input(in)
		if !ok {
			return badHandle()
		}
		r := abi.DecodeEvents(b)
		return &r
	})
}

//go:wasmexport pdu_decode
func pduDecode(in uint32) uint32 {
	return result(func() msgp.Marshaler {
		b, ok := input(in)
		if !ok {
			return badHandle()
		}
		r := abi.DecodePDUs(b)
		return &r
	})
}

// mmvRead reads buffer in as an MMV file image; flags bit 0 selects
// big-endian.
//
//go:wasmexport mmv_read
func mmvRead(in, flags uint32) uint32 {
	return result(func() msgp.Marshaler {
		b, ok := input(in)
		if !ok {
			return badHandle()
		}
		r := abi.ReadMMV(b, flags&1 != 0)
		return &r
	})
}

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
func kpiFeed(s, in uint32) uint32 {
	return result(func() msgp.Marshaler {
		k, ok := sessions[s]
		b, ok2 := input(in)
		if !ok || !ok2 {
			return badHandle()
		}
		r := k.Feed(b)
		return &r
	})
}

//go:wasmexport kpi_end
func kpiEnd(s uint32) uint32 {
	return sessionResult(s, func(k *abi.KPISession) msgp.Marshaler {
		r := k.End()
		return &r
	})
}
