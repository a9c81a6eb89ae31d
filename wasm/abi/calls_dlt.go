//go:build !kpi && !pcp && !mmv && !archive

package abi

// The DLT call, in the all-formats modules and the dlt module (module.go's
// tables).
func dltCall(_ Op, _ any, in []byte, _ uint32, b []byte) []byte { return AppendDLTDecode(b, in) }
