//go:build linux || darwin || freebsd || netbsd || openbsd

package pmapi

import (
	"io"
	"net"
	"os"
	"syscall"
	"time"
)

// blockingConn does a connection's I/O with blocking system calls on its
// file descriptor (see Options.BlockingIO). RawConn's Read and Write are used
// only to hold the descriptor: the callbacks always report done, so the
// network poller never waits, even when a timed-out call returns EAGAIN.
type blockingConn struct {
	rc syscall.RawConn
	// The RawConn callbacks are method values made once, working on
	// these fields: a closure per call would allocate on every request.
	readFn, writeFn func(fd uintptr) bool
	p               []byte
	n               int
	err             error
}

// newBlocking switches conn's descriptor to blocking mode with timeout
// as SO_RCVTIMEO and SO_SNDTIMEO. It returns nil, leaving conn as it was
// as far as possible, when conn has no descriptor or a call fails.
func newBlocking(conn net.Conn, timeout time.Duration) blockingIO {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	// A zero timeval means "no timeout" to the kernel.
	tv := syscall.NsecToTimeval(max(timeout, time.Microsecond).Nanoseconds())
	var serr error
	err = rc.Control(func(fd uintptr) {
		if serr = syscall.SetsockoptTimeval(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv); serr != nil {
			return
		}
		if serr = syscall.SetsockoptTimeval(int(fd), syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &tv); serr != nil {
			return
		}
		serr = syscall.SetNonblock(int(fd), false)
	})
	if err != nil || serr != nil {
		return nil
	}
	b := &blockingConn{rc: rc}
	b.readFn, b.writeFn = b.read, b.write
	return b
}

func (b *blockingConn) read(fd uintptr) bool {
	b.n, b.err = syscall.Read(int(fd), b.p)
	return true
}

func (b *blockingConn) write(fd uintptr) bool {
	b.n, b.err = syscall.Write(int(fd), b.p)
	return true
}

func (b *blockingConn) Read(p []byte) (int, error) {
	defer func() { b.p = nil }() // do not keep the caller's buffer
	for {
		b.p = p
		if err := b.rc.Read(b.readFn); err != nil {
			return 0, err
		}
		n, serr := b.n, b.err
		switch {
		case serr == nil && n == 0 && len(p) > 0:
			return 0, io.EOF
		case serr == nil:
			return n, nil
		case serr == syscall.EINTR:
			continue
		case serr == syscall.EAGAIN:
			return 0, os.ErrDeadlineExceeded // SO_RCVTIMEO expired
		}
		return 0, os.NewSyscallError("read", serr)
	}
}

func (b *blockingConn) Write(p []byte) (int, error) {
	defer func() { b.p = nil }()
	done := 0
	for done < len(p) {
		b.p = p[done:]
		if err := b.rc.Write(b.writeFn); err != nil {
			return done, err
		}
		switch n, serr := b.n, b.err; {
		case serr == nil:
			done += n
		case serr == syscall.EINTR:
		case serr == syscall.EAGAIN:
			return done, os.ErrDeadlineExceeded // SO_SNDTIMEO expired
		default:
			return done, os.NewSyscallError("write", serr)
		}
	}
	return done, nil
}

// interrupt wakes a read or write blocked in the kernel: shutdown makes
// both return at once (a read sees end of stream).
func (b *blockingConn) interrupt() {
	b.rc.Control(func(fd uintptr) { syscall.Shutdown(int(fd), syscall.SHUT_RDWR) })
}
