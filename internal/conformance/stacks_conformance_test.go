//go:build conformance

package conformance

import (
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestConformancePmcdHello reads the first PDU of a live pmcd and checks it
// against the handshake pmcd 6.0.3 sent in the bundled capture: a 20-byte
// ERROR PDU with status 0 and a features word announcing protocol 2.
func TestConformancePmcdHello(t *testing.T) {
	want, err := os.ReadFile("testdata/pmcd-hello.bin")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.DialTimeout("tcp", "127.0.0.1:44321", 5*time.Second)
	if err != nil {
		t.Fatalf("pmcd is not listening (run scripts/pcp-up.sh): %v", err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	got := make([]byte, 20)
	if _, err := io.ReadFull(conn, got); err != nil {
		t.Fatalf("reading pmcd's first PDU: %v", err)
	}
	if n := binary.BigEndian.Uint32(got[0:]); n != 20 {
		t.Fatalf("first PDU len = %d, want 20", n)
	}
	if typ := binary.BigEndian.Uint32(got[4:]); typ != 0x7000 {
		t.Fatalf("first PDU type = %#x, want ERROR (0x7000)", typ)
	}
	if code := int32(binary.BigEndian.Uint32(got[12:])); code != 0 {
		t.Fatalf("handshake status = %d, want 0", code)
	}
	if version := got[16] & 0x7f; version != 2 {
		t.Fatalf("protocol version = %d, want 2", version)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("handshake PDU % x differs from the captured % x", got, want)
	}
}

// kpiTags are the identifiers dlt-kpi puts in its first argument.
var kpiTags = map[string]bool{"NEW": true, "STP": true, "ACT": true, "CHK": true, "IRQ": true}

// TestConformanceDltKpiLive records the live dlt-daemon with dlt-receive,
// finds a KPI message from dlt-kpi in the recording and checks that
// dlt-convert, the reference decoder, prints the same arguments.
func TestConformanceDltKpiLive(t *testing.T) {
	for _, tool := range []string{"dlt-receive", "dlt-convert"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed (run scripts/dlt-up.sh): %v", tool, err)
		}
	}
	file := filepath.Join(t.TempDir(), "live.dlt")
	rec := exec.Command("dlt-receive", "-o", file, "localhost")
	if err := rec.Start(); err != nil {
		t.Fatal(err)
	}
	// dlt-kpi reports processes every second; a few seconds hold several.
	time.Sleep(4 * time.Second)
	rec.Process.Kill()
	rec.Wait()

	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	args := firstKPI(t, data)
	if args == nil {
		t.Fatalf("no KPI message among %d recorded bytes", len(data))
	}
	out, err := exec.Command("dlt-convert", "-a", file).Output()
	if err != nil {
		t.Fatalf("dlt-convert: %v", err)
	}
	want := " PROC PROC log info V " + strconv.Itoa(len(args)) + " [" + strings.Join(args, " ") + "]"
	if !strings.Contains(string(out), want) {
		t.Errorf("dlt-convert does not show the KPI message %q", want)
	}
}

// firstKPI walks storage-framed DLT messages and returns the string
// arguments of the first verbose message from application PROC whose first
// argument is a KPI identifier. It is a deliberately small, independent
// reader: package dlt has its own, fuller tests.
func firstKPI(t *testing.T, b []byte) []string {
	for len(b) >= 16+4 {
		if string(b[:4]) != "DLT\x01" {
			t.Fatalf("no storage header where one was expected: % x", b[:4])
		}
		std := b[16:]
		htyp := std[0]
		n := int(binary.BigEndian.Uint16(std[2:]))
		if n < 4 || n > len(std) {
			t.Fatalf("message length %d exceeds the %d bytes left", n, len(std))
		}
		msg := std[:n]
		b = std[n:]
		off := 4
		for _, bit := range []byte{0x04, 0x08, 0x10} { // ECU id, session id, timestamp
			if htyp&bit != 0 {
				off += 4
			}
		}
		if htyp&0x01 == 0 || off+10 > len(msg) { // no extended header
			continue
		}
		ext := msg[off:]
		verbose, nargs, apid := ext[0]&1 == 1, int(ext[1]), string(ext[2:6])
		if !verbose || apid != "PROC" {
			continue
		}
		var order binary.ByteOrder = binary.LittleEndian
		if htyp&0x02 != 0 {
			order = binary.BigEndian
		}
		p := ext[10:]
		var args []string
		for range nargs {
			if len(p) < 6 || order.Uint32(p) != 0x200 { // a plain ASCII string
				t.Fatalf("dlt-kpi argument is not a string: % x", p[:min(len(p), 6)])
			}
			sl := int(order.Uint16(p[4:]))
			if sl > len(p)-6 {
				t.Fatalf("string argument of %d bytes overruns its message", sl)
			}
			args = append(args, strings.TrimSuffix(string(p[6:6+sl]), "\x00"))
			p = p[6+sl:]
		}
		if len(args) > 0 && kpiTags[args[0]] {
			return args
		}
	}
	return nil
}
