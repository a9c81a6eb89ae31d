//go:build conformance

package main

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

func pmOracle(t *testing.T, tool string, args ...string) string {
	t.Helper()
	out, err := exec.Command(tool, append([]string{"-h", "127.0.0.1"}, args...)...).Output()
	if err != nil && len(out) == 0 {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	return string(out)
}

func runCLI(t *testing.T, args ...string) (string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return out.String() + errb.String(), code
}

// perfwire pm desc prints what pminfo -d prints, for every metric of the
// four PMDAs whose descriptor pmcd can give.
func TestConformancePmDesc(t *testing.T) {
	pmEqualsPminfo(t, "desc", "-d", "sample.long", "sample.colour", "simple", "trivial", "mmv.control", "sample.ulonglong", "sample.float", "sample.string", "sample.bad.nosupport")
}

// perfwire pm fetch prints what pminfo -f prints for metrics whose values
// do not change between two fetches.
func TestConformancePmFetch(t *testing.T) {
	pmEqualsPminfo(t, "fetch", "-f", "sample.long", "sample.double.bin", "sample.string.hullo", "sample.aggregate.hullo", "sample.bin", "sample.ulonglong.million", "sample.float.one")
}

// perfwire pm labels prints what pminfo -l prints.
func TestConformancePmLabels(t *testing.T) {
	pmEqualsPminfo(t, "labels", "-l", "sample.colour", "sample.long", "simple", "trivial", "sample.event", "mmv.control")
}

// pmEqualsPminfo checks that perfwire pm verb prints for each of names
// what pminfo flag prints for it.
func pmEqualsPminfo(t *testing.T, verb, flag string, names ...string) {
	t.Helper()
	for _, name := range names {
		got, code := runCLI(t, "pm", verb, name)
		if code != 0 {
			t.Fatalf("pm %s %s: exit %d: %s", verb, name, code, got)
		}
		if want := pmOracle(t, "pminfo", flag, name); got != want {
			t.Errorf("pm %s %s:\n%s\npminfo %s:\n%s", verb, name, got, flag, want)
		}
	}
}

// perfwire pm store changes the value pminfo then reads, and reports a
// refused store as an input error with pmstore's message.
func TestConformancePmStore(t *testing.T) {
	got, code := runCLI(t, "pm", "store", "sample.write_me", "314")
	if code != 0 || !strings.Contains(got, "new value=314") {
		t.Fatalf("pm store: exit %d: %s", code, got)
	}
	if out := pmOracle(t, "pminfo", "-f", "sample.write_me"); !strings.Contains(out, "value 314\n") {
		t.Errorf("pminfo after pm store shows %q", out)
	}
	got, code = runCLI(t, "pm", "store", "sample.long.one", "5")
	oracle := pmOracle(t, "pmstore", "sample.long.one", "5")
	if code != 1 || !strings.Contains(oracle, "No permission to perform requested operation") ||
		!strings.Contains(got, "No permission to perform requested operation") {
		t.Errorf("refused store: exit %d %q; pmstore says %q", code, got, oracle)
	}
}

// failWriter refuses every write, as a closed pipe does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("write refused") }

// A --json output that cannot be written is an error (exit 1), not a
// silent success.
func TestConformancePmJSONWriteError(t *testing.T) {
	var errb bytes.Buffer
	if code := run([]string{"pm", "-h", "127.0.0.1", "--json", "names", "sample.long"}, failWriter{}, &errb); code != 1 ||
		!strings.Contains(errb.String(), "write refused") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}
