package pmda

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// cancelBound is how soon a server must return once its context is done
// while it waits for pmcd.
const cancelBound = time.Second

// settleGoroutines waits up to 2 s for the goroutine count to fall to n
// and returns the count then.
func settleGoroutines(n int) int {
	deadline := time.Now().Add(2 * time.Second)
	for {
		got := runtime.NumGoroutine()
		if got <= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// handshake plays pmcd's start-up on c and one request, so that the agent
// is in its request loop, waiting for the next PDU.
func handshake(t *testing.T, rd *pduwire.Reader, w interface{ Write([]byte) (int, error) }) {
	t.Helper()
	var creds pduwire.CredsPDU
	if !rd.Next() || creds.UnmarshalBinary(rd.PDU().Bytes) != nil {
		t.Fatalf("no CREDS from the agent: %v", rd.Err())
	}
	w.Write((&pduwire.CredsPDU{Creds: []pduwire.Credential{pduwire.NewVersionCred(2, 0)}}).Append(nil, 1))
	w.Write((&pduwire.DescReqPDU{PMID: idColour}).Append(nil, 0))
	var d pduwire.DescPDU
	if !rd.Next() || d.UnmarshalBinary(rd.PDU().Bytes) != nil {
		t.Fatalf("no DESC from the agent: %v", rd.Err())
	}
}

// TestServeListenerCancelMidStream cancels the agent while pmcd is
// connected and silent: ServeListener returns ctx's error within the
// bound and leaves no goroutine behind.
func TestServeListenerCancelMidStream(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "pmda.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	base := runtime.NumGoroutine()
	a := testAgent(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.ServeListener(ctx, ln) }()
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	handshake(t, pduwire.NewReader(c, pduwire.Options{}), c)
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if d := time.Since(start); d > cancelBound {
			t.Errorf("ServeListener returned %v after the cancel, want under %v", d, cancelBound)
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("ServeListener returned %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeListener did not return 10 s after the cancel")
	}
	if n := settleGoroutines(base); n > base {
		t.Errorf("%d goroutines after ServeListener returned, %d before it started", n, base)
	}
}

// TestServePipeCancel runs ServePipe in a child process whose stdin and
// stdout are pipes from this one, blocking ones as pmcd's are. The child
// cancels its context while it waits for the next request, and reports
// how long ServePipe took to return and the goroutines left.
func TestServePipeCancel(t *testing.T) {
	if os.Getenv("PMDA_TEST_SERVEPIPE") == "1" {
		servePipeChild()
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestServePipeCancel$")
	cmd.Env = append(os.Environ(), "PMDA_TEST_SERVEPIPE=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	handshake(t, pduwire.NewReader(out, pduwire.Options{}), in)
	// The child cancels on its own; this side keeps stdin open and quiet.
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("child: %v\n%s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the child's ServePipe did not return 20 s after it started:\n%s", stderr.String())
	}
	report := stderr.String()
	if !strings.Contains(report, "servepipe: ok") {
		t.Errorf("child's report:\n%s", report)
	}
}

// servePipeChild is the child's side of TestServePipeCancel: it writes its
// verdict to stderr ("servepipe: ok" or what went wrong) and exits.
func servePipeChild() {
	fail := func(msg string) {
		os.Stderr.WriteString("servepipe: " + msg + "\n")
		os.Exit(1)
	}
	base := runtime.NumGoroutine()
	a, err := New(Options{Domain: testDomain, Name: "cancel", Metrics: []Metric{
		{Name: "cancel.colour", PMID: pcp.NewID(0, 0, 1), Type: pcp.Type32, InDom: pcp.InDomNull},
	}, Logf: func(string, ...any) {}})
	if err != nil {
		fail(err.Error())
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.ServePipe(ctx) }()
	time.Sleep(time.Second) // the parent's handshake happens meanwhile
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if d := time.Since(start); d > cancelBound {
			fail("returned " + d.String() + " after the cancel")
		}
		if !errors.Is(err, context.Canceled) {
			fail("returned " + strconv.Quote(errString(err)) + ", want context.Canceled")
		}
	case <-time.After(10 * time.Second):
		fail("did not return 10 s after the cancel")
	}
	if n := settleGoroutines(base); n > base {
		fail(strconv.Itoa(n) + " goroutines left, " + strconv.Itoa(base) + " before")
	}
	os.Stderr.WriteString("servepipe: ok\n")
	os.Exit(0)
}

func errString(err error) string {
	if err == nil {
		return "nil"
	}
	return err.Error()
}
