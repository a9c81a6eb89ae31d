//go:build conformance

package eventrec

import (
	"bytes"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

const pmcdAddr = "127.0.0.1:44321"

// pminfoThroughProxy runs pminfo against a recording TCP relay in front of
// the live pmcd and returns pminfo's stdout and the exact bytes pmcd sent
// it, so our decoding of those bytes can be compared with what libpcp
// printed for the very same bytes.
func pminfoThroughProxy(t *testing.T, args ...string) (stdout string, server []byte) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	type capture struct {
		b   []byte
		err error
	}
	done := make(chan capture, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			done <- capture{err: err}
			return
		}
		defer c.Close()
		up, err := net.Dial("tcp", pmcdAddr)
		if err != nil {
			done <- capture{err: err}
			return
		}
		var buf bytes.Buffer
		go func() {
			io.Copy(up, c)
			up.Close()
		}()
		// The recording comes first, so every byte pminfo has read is
		// already in buf when pminfo exits.
		io.Copy(io.MultiWriter(&buf, c), up)
		done <- capture{b: buf.Bytes()}
	}()
	cmd := exec.Command("pminfo", append([]string{"-h", ln.Addr().String()}, args...)...)
	cmd.Env = append(os.Environ(), "TZ=UTC", "LC_ALL=C")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pminfo %v: %v\n%s", args, err, stderr.Bytes())
	}
	capt := <-done
	if capt.err != nil {
		t.Fatalf("relay to pmcd: %v", capt.err)
	}
	return string(out), capt.b
}

// TestConformancePminfoEvents fetches sample.event.records and
// sample.event.highres_records from the live pmcd several times (the
// sample PMDA changes its records on every fetch: missed markers, every
// parameter type, span flags) and checks that every array decodes, that
// every record, flag word, parameter value and missed count matches
// `pminfo -x` printed from the same bytes, and that the builder
// re-encodes each array to the same bytes apart from pad.
func TestConformancePminfoEvents(t *testing.T) {
	names := parseNames(t, runTool(t, "pminfo", "-h", "127.0.0.1", "-m", "sample.event"))
	record := os.Getenv("EVENTREC_RECORD") // dev aid: save goldens for the unit tests
	for i := range 6 {
		out, server := pminfoThroughProxy(t, "-x", "sample.event.records", "sample.event.highres_records")
		got := renderPminfoX(t, server, names)
		if want := normalizePminfo(out); got != want {
			t.Errorf("fetch %d: decoded arrays differ from pminfo -x\n--- ours\n%s--- pminfo\n%s", i, got, want)
		}
		checkReencode(t, server)
		if record != "" {
			base := filepath.Join("testdata", "live"+strconv.Itoa(i))
			os.WriteFile(base+".server.bin", server, 0o644)
			os.WriteFile(base+".pminfo-x.txt", []byte(out), 0o644)
		}
	}
	if record != "" {
		os.WriteFile(filepath.Join("testdata", "sample-event.pminfo-m.txt"), []byte(runTool(t, "pminfo", "-h", "127.0.0.1", "-m", "sample.event")), 0o644)
	}
}

func runTool(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "TZ=UTC", "LC_ALL=C")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return string(out)
}
