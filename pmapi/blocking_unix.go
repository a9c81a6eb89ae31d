//go:build linux || darwin || freebsd || netbsd || openbsd

package pmapi

import (
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"time"
)

// blockingConn does a connection's I/O with blocking system calls on a
// descriptor of its own (see Options.BlockingIO): a duplicate of the
// dialled connection's, after which the connection itself is closed. The
// duplicate is outside Go's network poller. A socket the poller watches
// (edge-triggered) wakes the thread waiting in the poller each time bytes
// arrive on it, even when no goroutine waits for them: one wasted thread
// wake-up and epoll_pwait per reply, which measured as a large part of a
// blocking client's CPU per fetch (bench/RESULTS.md, fetch-client).
type blockingConn struct {
	fd int
	// mu orders interrupt and Close: once the descriptor is closed its
	// number may be reused, and a late interrupt must not shut down
	// whatever now holds it. Reads and writes do not take it: the Client
	// never runs them concurrently with Close.
	mu     sync.Mutex
	closed bool
}

// newBlocking duplicates conn's descriptor, switches the duplicate to
// blocking mode with timeout as SO_RCVTIMEO and SO_SNDTIMEO, and closes
// conn. It returns nil, leaving conn open and usable, when conn has no
// descriptor or a call fails.
func newBlocking(conn net.Conn, timeout time.Duration) blockingIO {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	fd := -1
	var derr error
	err = rc.Control(func(s uintptr) {
		// As os/exec expects: no fork between the dup and close-on-exec.
		syscall.ForkLock.RLock()
		fd, derr = syscall.Dup(int(s))
		if derr == nil {
			syscall.CloseOnExec(fd)
		}
		syscall.ForkLock.RUnlock()
	})
	if err != nil || derr != nil {
		return nil
	}
	// A zero timeval means "no timeout" to the kernel.
	tv := syscall.NsecToTimeval(max(timeout, time.Microsecond).Nanoseconds())
	if syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv) != nil ||
		syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &tv) != nil ||
		syscall.SetNonblock(fd, false) != nil {
		syscall.Close(fd)
		return nil
	}
	// The socket stays open through the duplicate; closing conn takes
	// its descriptor out of the poller.
	conn.Close()
	return &blockingConn{fd: fd}
}

func (b *blockingConn) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(b.fd, p)
		switch {
		case err == nil && n == 0 && len(p) > 0:
			return 0, io.EOF
		case err == nil:
			return n, nil
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return 0, os.ErrDeadlineExceeded // SO_RCVTIMEO expired
		}
		return 0, os.NewSyscallError("read", err)
	}
}

func (b *blockingConn) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		n, err := syscall.Write(b.fd, p[done:])
		switch {
		case err == nil:
			done += n
		case err == syscall.EINTR:
		case err == syscall.EAGAIN:
			return done, os.ErrDeadlineExceeded // SO_SNDTIMEO expired
		default:
			return done, os.NewSyscallError("write", err)
		}
	}
	return done, nil
}

// interrupt wakes a read or write blocked in the kernel: shutdown makes
// both return at once (a read sees end of stream).
func (b *blockingConn) interrupt() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		syscall.Shutdown(b.fd, syscall.SHUT_RDWR)
	}
}

// Close closes the descriptor; it is safe to call more than once.
func (b *blockingConn) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	return syscall.Close(b.fd)
}
