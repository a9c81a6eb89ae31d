//go:build pcp || mmv || dlt || archive

package abi

// The KPI calls are not in this build: nil handlers, which answer ErrNotBuilt.
var (
	kpiCall func(o Op, s any, in []byte, n uint32, b []byte) []byte
	kpiOpen func(o Op, in []byte, n uint32) any
)
