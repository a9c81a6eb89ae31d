//go:build kpi || pcp || mmv || archive

package abi

// The DLT call is not in this build: nil handlers, which answer ErrNotBuilt.
var (
	dltCall func(o Op, s any, in []byte, n uint32, b []byte) []byte
)
