package diff

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// dieEnv names a marker file for TestQueryConfirmsCrash: a child that
// can create it exits on its first query, as a child that earlier inputs
// had ruined would; "always" makes every child exit.
const dieEnv = "PERFWIRE_TEST_CHILD_DIES"

// dieEarly runs in the child before it serves: it makes the child fail
// the way dieEnv asks, after reading its first query.
func dieEarly() {
	m := os.Getenv(dieEnv)
	if m == "" {
		return
	}
	if m != "always" {
		f, err := os.OpenFile(m, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return // the marker is there: this child is the fresh one
		}
		f.Close()
	}
	var hdr [5]byte
	_, _ = io.ReadFull(os.Stdin, hdr[:])
	os.Exit(2)
}

func TestQueryConfirmsCrash(t *testing.T) {
	pdu := []byte{0, 0, 0, 20, 0, 0, 0x70, 0x04, 0, 0, 0, 0, 0x07, 0x40, 0, 0x81, 0, 0, 0, 0}
	want := query(t, kindPDU, pdu) // the shared child's answer for a DESC_REQ

	t.Setenv(dieEnv, filepath.Join(t.TempDir(), "died"))
	o := NewOracle(os.Args[0])
	defer o.Close()
	got, err := o.Query(kindPDU, pdu)
	if err != nil {
		t.Fatal(err)
	}
	if got != want || o.Crashes != 1 {
		t.Errorf("a child that dies once: got %q after %d crashes, want %q after 1", got, o.Crashes, want)
	}

	t.Setenv(dieEnv, "always")
	o2 := NewOracle(os.Args[0])
	defer o2.Close()
	got, err = o2.Query(kindPDU, pdu)
	if err != nil {
		t.Fatal(err)
	}
	if got != "CRASH exit status 2\n" || o2.Crashes != 2 {
		t.Errorf("a child that always dies: got %q after %d crashes, want a crash after 2", got, o2.Crashes)
	}
}
