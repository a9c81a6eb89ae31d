//go:build conformance

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/mmv/mmvfile"
)

// PCP's QA program badmmv (src/badmmv.c of pcp-testsuite, built here)
// writes 22 damaged MMV files. The real pmdammv serves none of them, and
// perfwire mmv, reading their directory as pmdammv does, serves none
// either: each is reported with what is wrong.
func TestConformanceBadMMVLikePmdammv(t *testing.T) {
	src := "/var/lib/pcp/testsuite/src/badmmv.c"
	if _, err := os.Stat(src); err != nil {
		t.Fatalf("PCP's QA sources are required (scripts/pcp-up.sh installs pcp-testsuite): %v", err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "badmmv")
	if out, err := exec.Command("gcc", "-I/usr/include/pcp", "-o", bin, src, "-lpcp").CombinedOutput(); err != nil {
		t.Fatalf("building badmmv (gcc, libpcp3-dev, libpcp-mmv1-dev): %v\n%s", err, out)
	}
	if err := os.Mkdir(filepath.Join(dir, "mmv"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, opt := range []string{"-h", "-c", "-i", "-m"} {
		cmd := exec.Command(bin, opt)
		cmd.Env = append(os.Environ(), "PCP_TMP_DIR="+dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("badmmv %s: %v\n%s", opt, err, out)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "mmv", "*"))
	if len(files) != 22 {
		t.Fatalf("badmmv wrote %d files, want 22: %v", len(files), files)
	}

	// The real pmdammv: the files in its directory, then how many it maps.
	served := func() int {
		out, err := exec.Command("pminfo", "-h", "127.0.0.1", "-f", "mmv.control.files").Output()
		if err != nil {
			t.Fatalf("pminfo: %v", err)
		}
		f := strings.Fields(string(out))
		n, err := strconv.Atoi(f[len(f)-1])
		if err != nil {
			t.Fatalf("mmv.control.files: %q", out)
		}
		return n
	}
	before := served()
	for _, f := range files {
		dst := filepath.Join(mmvfile.Dir(), "perfwire-badmmv-"+filepath.Base(f))
		b, _ := os.ReadFile(f)
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(dst)
	}
	if after := served(); after != before {
		t.Fatalf("pmdammv maps %d files more with badmmv's (the oracle changed?)", after-before)
	}

	out := runOK(t, "mmv", filepath.Join(dir, "mmv"))
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 22 {
		t.Fatalf("%d lines for 22 files:\n%s", len(lines), out)
	}
	for _, l := range lines {
		var f struct {
			File    string
			Error   *struct{ Message string }
			Metrics []json.RawMessage
		}
		if err := json.Unmarshal([]byte(l), &f); err != nil || f.Error == nil || f.Error.Message == "" || f.Metrics != nil {
			t.Errorf("a badmmv file served or not explained: %s", l)
		}
	}
}
