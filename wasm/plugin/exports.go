//go:build wasip1

package main

import (
	"runtime/debug"

	// The exports of wasm/ABI.md.
	_ "github.com/perfwire/perfwire/wasm/internal/exports"
)

// A host sizes its instances by their linear memory, which never
// shrinks: collecting at 25% heap growth instead of Go's 100% keeps the
// memory of a module that has decoded a few inputs near its live data
// (TestMemoryBounded) for a little more collector time.
func init() { debug.SetGCPercent(25) }
