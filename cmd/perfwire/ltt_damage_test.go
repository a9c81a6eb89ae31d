package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A cpu file cut short: perfwire ltt reads the rest, exits 0 and says on
// stderr which file, how many bytes and blocks (it said nothing before).
// A trailer rule forced wrongly: the error says the rule may be why.
func TestLTTReportsDamage(t *testing.T) {
	src := "../../ltt/testdata/smp_example"
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(dir, "cpu", "1"), 100000); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"ltt", dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	want := "perfwire ltt: " + dir + "/cpu/1: 100000 bytes is not a whole number of 1000000-byte blocks: 0 blocks read"
	if !strings.HasPrefix(errb.String(), want) {
		t.Errorf("stderr %q, want %q...", errb.String(), want)
	}

	for _, args := range [][]string{{"--events", "--merged"}, {"--events"}, {}} {
		out.Reset()
		errb.Reset()
		args = append(append([]string{"ltt", "--version", "v2"}, args...), src)
		if code := run(args, &out, &errb); code != 1 ||
			!strings.Contains(errb.String(), "cpu/0: ltt: ") || !strings.Contains(errb.String(), "(the trace may not be --version v2: try --version auto)") {
			t.Errorf("%v on a v1 trace: exit %d, %q", args, code, errb.String())
		}
	}
}
