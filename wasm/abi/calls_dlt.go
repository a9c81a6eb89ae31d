package abi

import "github.com/perfwire/perfwire/render"

// The DLT call, in the all-formats modules and the dlt module (the
// table_*.go files).
func dltCall(_ Op, _ any, in []byte, _ uint32, b []byte) []byte { return render.AppendDLTDecode(b, in) }
