package importcheck

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestPMDAOutsideCore fails if a package of the WebAssembly stack depends
// on pmda, which runs goroutines, timers and os I/O for pmcd, or if pmda
// depends on the Parquet export: it is a server package over the core
// formats, beside pmapi, not under them.
func TestPMDAOutsideCore(t *testing.T) {
	deps := func(p string) []string {
		cmd := exec.Command("go", "list", "-deps", "./"+p)
		cmd.Dir = "../.."
		cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH=amd64", "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps ./%s: %v\n%s", p, err, out)
		}
		return strings.Fields(string(out))
	}
	for _, p := range append(append([]string{}, core...), "schema", "render", "wasm/abi") {
		for _, dep := range deps(p) {
			if strings.HasPrefix(dep, module+"pmda") {
				t.Errorf("package %s depends on %s", p, dep)
			}
		}
	}
	for _, dep := range deps("pmda") {
		if strings.HasPrefix(dep, module+"export") || strings.HasPrefix(dep, module+"cmd") || strings.HasPrefix(dep, "github.com/parquet-go/") {
			t.Errorf("pmda depends on %s", dep)
		}
	}
}
