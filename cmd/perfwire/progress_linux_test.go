package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY returns the two ends of a new pseudo-terminal.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return m, s
}

// perfwire kpi on a file over 50 MiB draws its progress on stderr when
// stderr is a terminal, erases it before it ends, and prints nothing of it
// when stderr is a pipe; stdout is the same either way.
func TestProgressOnTerminal(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "perfwire")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	capture := readTestFile(t, kpiTestdata+"kpi-odd.dlt")
	big := writeTestFile(t, dir, "big.dlt", bytes.Repeat(capture, progressMin/len(capture)+1))

	master, slave := openPTY(t)
	defer master.Close()
	var onTTY bytes.Buffer
	read := make(chan struct{})
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			onTTY.Write(buf[:n])
			if err != nil {
				close(read)
				return
			}
		}
	}()
	cmd := exec.Command(bin, "kpi", "--summary", big)
	var stdout1 bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout1, slave
	if err := cmd.Run(); err != nil {
		t.Fatalf("kpi on a terminal: %v", err)
	}
	slave.Close()
	<-read // the master reads EIO once the last slave is closed
	tty := onTTY.String()
	if !strings.Contains(tty, "\r"+big+": ") || !strings.Contains(tty, " MiB") {
		t.Errorf("no progress line on the terminal: %q", tty)
	}
	if !strings.HasSuffix(tty, "\r\x1b[K") {
		t.Errorf("progress line not erased at the end: %q", tty[max(0, len(tty)-40):])
	}

	cmd = exec.Command(bin, "kpi", "--summary", big)
	var stdout2, stderr2 bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout2, &stderr2
	if err := cmd.Run(); err != nil {
		t.Fatalf("kpi on a pipe: %v", err)
	}
	if strings.Contains(stderr2.String(), "MiB") {
		t.Errorf("progress drawn on a pipe: %q", stderr2.String())
	}
	if stdout1.String() != stdout2.String() || stdout1.Len() == 0 {
		t.Errorf("stdout differs with a terminal on stderr:\n%s\n%s", stdout1.String(), stdout2.String())
	}
}
