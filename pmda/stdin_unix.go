//go:build unix

package pmda

import (
	"os"
	"syscall"
)

// pollableStdin returns stdin as a file in non-blocking mode, which Go's
// poller serves and read deadlines interrupt, and a function that closes
// it and puts stdin back in blocking mode. The mode belongs to the open
// pipe, not the descriptor, so it is restored even though the file read
// is a duplicate. Where stdin cannot be duplicated it is returned as it is.
func pollableStdin() (*os.File, func()) {
	fd, err := syscall.Dup(int(os.Stdin.Fd()))
	if err != nil {
		return os.Stdin, func() {}
	}
	syscall.CloseOnExec(fd)
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return os.Stdin, func() {}
	}
	f := os.NewFile(uintptr(fd), "stdin")
	return f, func() {
		f.Close()
		syscall.SetNonblock(int(os.Stdin.Fd()), false)
	}
}
