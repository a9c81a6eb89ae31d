//go:build js

package main

import "github.com/perfwire/perfwire/bench/pluginfloor"

// in is the input of the next walk: one buffer, grown when an input
// needs more, as the plugin modules recycle the buffers a host frees.
var in []byte

//go:wasmexport floor_in
func floorIn(n uint32) *byte {
	if cap(in) < int(max(n, 1)) {
		in = make([]byte, max(n, 1))
	}
	in = in[:n]
	return &in[:1][0]
}

//go:wasmexport walk_kpi
func walkKPI() uint32 { return pluginfloor.KPI(in) }

//go:wasmexport walk_pdu
func walkPDU() uint32 { return pluginfloor.PDUs(in) }

//go:wasmexport walk_mmv
func walkMMV() uint32 { return pluginfloor.MMV(in) }

// serve waits forever, so that the exports stay callable.
func serve() { select {} }
