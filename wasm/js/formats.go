//go:build js && !kpionly

package main

import (
	"syscall/js"

	"github.com/perfwire/perfwire/wasm/abi"
	"github.com/tinylib/msgp/msgp"
)

// setFormats adds the calls for the PCP formats. A build with the
// kpionly tag leaves them out: the dlt-kpi viewer needs only the KPI
// calls, and the module is then about 0.45 MB smaller.
func setFormats(o js.Value) {
	o.Set("labelsCanon", fn(func(a []js.Value) msgp.Marshaler {
		r := abi.CanonLabels(bytesArg(a, 0))
		return &r
	}))
	o.Set("labelsMerge", fn(func(a []js.Value) msgp.Marshaler {
		r := abi.MergeLabels(bytesArg(a, 0))
		return &r
	}))
	o.Set("eventsDecode", fn(func(a []js.Value) msgp.Marshaler {
		r := abi.DecodeEvents(bytesArg(a, 0))
		return &r
	}))
	o.Set("pduDecode", fn(func(a []js.Value) msgp.Marshaler {
		r := abi.DecodePDUs(bytesArg(a, 0))
		return &r
	}))
	o.Set("mmvRead", fn(func(a []js.Value) msgp.Marshaler {
		r := abi.ReadMMV(bytesArg(a, 0), intArg(a, 1)&1 != 0)
		return &r
	}))
}
