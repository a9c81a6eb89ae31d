//go:build kpi || pcp || mmv || dlt

package abi

// The archive calls are not in this build: nil handlers, which answer ErrNotBuilt.
var (
	archiveNext func(o Op, s any, in []byte, n uint32, b []byte) []byte
	archiveOpen func(o Op, in []byte, n uint32) any
)
