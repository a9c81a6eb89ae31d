//go:build kpi || pcp || dlt || archive

package abi

// The MMV calls are not in this build: nil handlers, which answer ErrNotBuilt.
var (
	mmvCall func(o Op, s any, in []byte, n uint32, b []byte) []byte
)
