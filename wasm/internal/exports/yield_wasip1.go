package exports

import "runtime"

// yield lets the collector's background workers run after a call of the
// wasip1 reactor, whose exports run on one goroutine that never blocks:
// without it, linear memory grows call after call (TestMemoryBounded:
// 24 MB after 10,000 bad calls instead of 6 MB).
func yield() { runtime.Gosched() }
