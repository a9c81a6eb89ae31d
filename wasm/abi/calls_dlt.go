//go:build dlt

package abi

import "github.com/tinylib/msgp/msgp"

// dlt_decode, in the dlt module only: a DLT message's JSON, its
// dlt-convert line and the argument decoding behind them cost about 160
// KB raw, 42 KB gzip -9, more than the all-formats and kpi modules'
// budgets leave (there it answers not_built).
func init() {
	calls[OpDLTDecode] = func(in []byte, _ uint32) msgp.Marshaler {
		r := DecodeDLT(in)
		return &r
	}
}
