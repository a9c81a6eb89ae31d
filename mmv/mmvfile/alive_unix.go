//go:build unix

package mmvfile

import (
	"errors"
	"syscall"

	"github.com/perfwire/perfwire/mmv"
)

// ProcessAlive reports whether pmdammv would export a file with header
// h: always without mmv.FlagProcess, else only while the pid exists
// (signal 0 succeeds or is refused for permission).
func ProcessAlive(h mmv.Header) bool {
	if h.Flags&mmv.FlagProcess == 0 {
		return true
	}
	if h.Process <= 0 {
		return false
	}
	err := syscall.Kill(int(h.Process), 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
