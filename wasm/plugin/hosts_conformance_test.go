//go:build conformance

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/perfwire/perfwire/render"
)

// TestConformanceABIHosts runs the two minimal hosts of ABI.md
// (wasm/hosts: host.mjs in Node, gohost in Go on wazero) on every PCP
// capture of ../testdata and compares what they print with the native
// pdu_decode result.
func TestConformanceABIHosts(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is required for ABI.md's JavaScript host: ", err)
	}
	dir := t.TempDir()
	mod := filepath.Join(dir, "perfwire.wasm")
	if err := os.WriteFile(mod, moduleBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	gohost := filepath.Join(dir, "gohost")
	if out, err := exec.Command("go", "build", "-o", gohost, "../hosts/gohost").CombinedOutput(); err != nil {
		t.Fatalf("build gohost: %v\n%s", err, out)
	}
	for _, lines := range []string{"../hosts/host.mjs", "../hosts/gohost/main.go"} {
		b, err := os.ReadFile(lines)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(b, []byte("\n")); n >= 40 {
			t.Errorf("%s: %d lines; ABI.md promises under 40", lines, n)
		}
	}
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "conv*.*[rt].bin"))
	if len(files) == 0 {
		t.Fatal("no captures")
	}
	for _, name := range files {
		in := readFile(t, filepath.Base(name))
		native := render.DecodePDUs(in, 0)
		want := marshal(t, &native)
		for _, cmd := range []*exec.Cmd{exec.Command(node, "../hosts/host.mjs", mod, name), exec.Command(gohost, mod, name)} {
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			got, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: %v\n%s", cmd.Args[:2], err, stderr.String())
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s on %s: %d bytes, native %d", cmd.Args[:2], filepath.Base(name), len(got), len(want))
			}
		}
	}
}
