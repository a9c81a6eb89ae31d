package diff

import (
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// staleEnv names a marker file for TestCompareAsksFreshChild: the child
// that creates it answers every query with a rejection, as a child that
// earlier inputs had left in a bad state might; children started after
// it answer truly. "always" makes every child answer so.
const staleEnv = "PERFWIRE_TEST_CHILD_STALE"

// serveStale runs in the child before it serves: when staleEnv makes
// this child a stale one, it answers every query with "REJECT" and exits
// at the end of its input.
func serveStale() {
	m := os.Getenv(staleEnv)
	if m == "" {
		return
	}
	if m != "always" {
		f, err := os.OpenFile(m, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return // the marker is there: this child is a new one
		}
		f.Close()
	}
	for {
		var hdr [5]byte
		if _, err := io.ReadFull(os.Stdin, hdr[:]); err != nil {
			os.Exit(0)
		}
		if _, err := io.CopyN(io.Discard, os.Stdin, int64(binary.BigEndian.Uint32(hdr[1:]))); err != nil {
			os.Exit(0)
		}
		os.Stdout.Write(append(binary.BigEndian.AppendUint32(nil, uint32(len(rejected))), rejected...))
	}
}

func TestCompareAsksFreshChild(t *testing.T) {
	descReq := []byte{0, 0, 0, 16, 0, 0, 0x70, 0x04, 0, 0, 0, 0, 0x07, 0x40, 0, 0x81}

	t.Setenv(staleEnv, filepath.Join(t.TempDir(), "stale"))
	o := NewOracle(os.Args[0])
	defer o.Close()
	if d := compareOn(t, o, kindPDU, descReq); d != "" {
		t.Errorf("a stale child, then a new one: report %q, want none", d)
	}

	t.Setenv(staleEnv, "always")
	o2 := NewOracle(os.Args[0])
	defer o2.Close()
	if d := compareOn(t, o2, kindPDU, descReq); !strings.Contains(d, "libpcp:\n"+rejected) {
		t.Errorf("every child stale: report %q, want the rejection reported", d)
	}
}
