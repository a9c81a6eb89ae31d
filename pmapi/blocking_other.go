//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package pmapi

import (
	"net"
	"time"
)

// newBlocking is not supported here: Options.BlockingIO has no effect.
func newBlocking(net.Conn, time.Duration) blockingIO { return nil }
