//go:build unix

package pmda

import (
	"os"
	"syscall"
)

// pollable returns f (stdin or stdout) as a file in non-blocking mode,
// which Go's poller serves: read deadlines interrupt its reads, and a
// write that fills the pipe waits in the poller instead of holding a
// thread in the kernel. The returned function closes it and puts f back
// in blocking mode: the mode belongs to the open pipe, not to the
// descriptor, so it is shared with the duplicate. Where f cannot be
// duplicated it is returned as it is.
func pollable(f *os.File) (*os.File, func()) {
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		return f, func() {}
	}
	syscall.CloseOnExec(fd)
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return f, func() {}
	}
	p := os.NewFile(uintptr(fd), f.Name())
	return p, func() {
		p.Close()
		syscall.SetNonblock(int(f.Fd()), false)
	}
}
