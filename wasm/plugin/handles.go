//go:build wasip1

package main

import "github.com/perfwire/perfwire/wasm/abi"

// maxAlloc bounds one buffer; larger requests get handle 0.
const maxAlloc = 1 << 30

// The handle table keeps buffers and sessions reachable while the host
// holds their handles. Go's collector does not move objects, so a pointer
// returned by buf_ptr stays valid until the handle is freed. Handle 0 is
// never issued.
var (
	buffers  = map[uint32][]byte{}
	sessions = map[uint32]*abi.KPISession{}
	last     uint32
)

// newHandle returns an unused handle, skipping 0 and live handles after
// the counter wraps.
func newHandle() uint32 {
	for {
		last++
		if last == 0 {
			continue
		}
		if _, ok := buffers[last]; ok {
			continue
		}
		if _, ok := sessions[last]; ok {
			continue
		}
		return last
	}
}

// keep stores b under a new handle.
func keep(b []byte) uint32 {
	h := newHandle()
	buffers[h] = b
	return h
}
