//go:build !kpi && !pcp && !mmv && !archive

package abi

import "github.com/tinylib/msgp/msgp"

// The DLT call, in the all-formats modules and the dlt module.
func init() {
	calls[OpDLTDecode] = dltCall
}

func dltCall(_ Op, _ any, in []byte, _ uint32) msgp.Marshaler { return &dltDecodeCall{in} }
