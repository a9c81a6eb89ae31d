package diff

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// ChildEnv, set to 1 in a process's environment, makes the test binary
// serve libpcp queries on stdin/stdout instead of running tests.
const ChildEnv = "PERFWIRE_LIBPCP_CHILD"

// queryTimeout bounds one libpcp decode (the fuzzing engine gives up on a
// worker stuck for about 10s); a child that takes longer is
// killed and the input reported as a hang.
const queryTimeout = 2 * time.Second

// Oracle runs libpcp in a child process so that a crash or a hang in
// libpcp becomes a reported outcome ("CRASH …", "HANG") instead of the
// end of the test. The child is restarted after each crash.
type Oracle struct {
	exe     string
	cmd     *exec.Cmd
	in      io.WriteCloser
	out     *bufio.Reader
	Crashes int // children lost to crashes or hangs
}

// NewOracle returns an Oracle that runs exe (normally os.Args[0], the
// test binary) as its child.
func NewOracle(exe string) *Oracle { return &Oracle{exe: exe} }

func (o *Oracle) start() error {
	cmd := exec.Command(o.exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), ChildEnv+"=1")
	// A child outliving its parent (a fuzz worker the engine killed) would
	// otherwise go on decoding, possibly allocating without bound.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	o.cmd, o.in, o.out = cmd, in, bufio.NewReader(out)
	return nil
}

// Fresh is Query on a new child, the current one stopped first: what
// libpcp makes of b in a clean process.
func (o *Oracle) Fresh(kind int, b []byte) (string, error) {
	o.Close()
	return o.Query(kind, b)
}

// Close stops the child.
func (o *Oracle) Close() {
	if o.cmd != nil {
		o.in.Close()
		_ = o.cmd.Wait()
		o.cmd = nil
	}
}

// Query has libpcp decode b (a PDU or a label text, per kind) and
// returns its canonical text, "REJECT\n", or "CRASH <status>\n" /
// "HANG\n" when the child died or stalled on this input.
func (o *Oracle) Query(kind int, b []byte) (string, error) {
	if o.cmd == nil {
		if err := o.start(); err != nil {
			return "", err
		}
	}
	req := make([]byte, 5, 5+len(b))
	req[0] = byte(kind)
	binary.BigEndian.PutUint32(req[1:], uint32(len(b)))
	req = append(req, b...)
	type reply struct {
		text string
		err  error
	}
	done := make(chan reply, 1)
	go func() {
		if _, err := o.in.Write(req); err != nil {
			done <- reply{err: err}
			return
		}
		var n [4]byte
		if _, err := io.ReadFull(o.out, n[:]); err != nil {
			done <- reply{err: err}
			return
		}
		text := make([]byte, binary.BigEndian.Uint32(n[:]))
		_, err := io.ReadFull(o.out, text)
		done <- reply{string(text), err}
	}()
	select {
	case r := <-done:
		if r.err == nil {
			return r.text, nil
		}
	case <-time.After(queryTimeout):
		_ = o.cmd.Process.Kill()
		<-done
		o.Close()
		o.Crashes++
		return "HANG\n", nil
	}
	// The child died inside libpcp: report how, start afresh next time.
	o.in.Close()
	err := o.cmd.Wait()
	o.cmd = nil
	o.Crashes++
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return "CRASH " + ee.ProcessState.String() + "\n", nil
	}
	return "CRASH " + strconv.Quote(errString(err)) + "\n", nil
}

func errString(err error) string {
	if err == nil {
		return "exit 0"
	}
	return err.Error()
}

// childMemory caps the child's address space: libpcp 6.0.3 sizes some
// allocations from unchecked counts (a LABEL's nsets, seen at 0x30303030
// sets, touched one by one), which without a cap grows the child by
// gigabytes before the query timeout ends it. With the cap such a calloc
// fails and libpcp reports the error.
const childMemory = 2 << 30

// ServeChild answers queries from r on w until r ends: the child side of
// Oracle. libpcp's own diagnostics go to stderr. It first caps the
// process's address space at childMemory.
func ServeChild(r io.Reader, w io.Writer) error {
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: childMemory, Max: childMemory}); err != nil {
		return err
	}
	br := bufio.NewReader(r)
	bw := bufio.NewWriter(w)
	var hdr [5]byte
	for {
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		b := make([]byte, binary.BigEndian.Uint32(hdr[1:]))
		if _, err := io.ReadFull(br, b); err != nil {
			return err
		}
		text := runOracle(int(hdr[0]), b)
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(text)))
		bw.Write(n[:])
		bw.WriteString(text)
		if err := bw.Flush(); err != nil {
			return err
		}
	}
}
