//go:build kpi || mmv || dlt || archive

package abi

// The PCP calls are not in this build: nil handlers, which answer ErrNotBuilt.
var (
	pcpCall func(o Op, s any, in []byte, n uint32, b []byte) []byte
	pduOpen func(o Op, in []byte, n uint32) any
)
