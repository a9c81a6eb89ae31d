package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// sizeBudget is what perfwire's own code may add to the Go runtime and
// the msgp runtime (issue 9), checked on the module the web viewer ships.
const sizeBudget = 400 << 10

// TestSizeBudget builds the kpi js module and the runtime+msgp
// baseline and fails if the difference exceeds the budget.
func TestSizeBudget(t *testing.T) {
	dir := t.TempDir()
	size := func(out string, args ...string) int64 {
		t.Helper()
		cmd := exec.Command("go", append([]string{"build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, out)}, args...)...)
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", out, err, b)
		}
		fi, err := os.Stat(filepath.Join(dir, out))
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	base := size("baseline.wasm", "../plugin/baseline")
	kpi := size("kpi.wasm", "-tags", "kpi", ".")
	t.Logf("baseline %d bytes, kpi module %d bytes: +%d", base, kpi, kpi-base)
	if kpi-base > sizeBudget {
		t.Errorf("the kpi js module adds %d bytes to the runtime+msgp baseline; the budget is %d", kpi-base, sizeBudget)
	}
}
