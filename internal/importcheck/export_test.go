package importcheck

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestExportOutsideCore fails if a package of the WebAssembly stack (the
// core formats, schema, render, wasm/abi) depends on the Parquet export or
// its library: export carries parquet-go and its codecs, which neither a
// plugin's size budget nor the core's dependency rules can afford. The
// native build is the one checked: it is where the CLI links both.
func TestExportOutsideCore(t *testing.T) {
	deps := func(p string) []string { return nativeDeps(t, p) }
	isExport := func(dep string) bool {
		return strings.HasPrefix(dep, module+"export") || strings.HasPrefix(dep, "github.com/parquet-go/")
	}
	// The rule checks something only while export does carry parquet-go.
	if !strings.Contains(strings.Join(deps("export/parquet"), " "), "github.com/parquet-go/parquet-go") {
		t.Fatal("export/parquet no longer depends on parquet-go: this test's rule needs a new witness")
	}
	for _, p := range append(append([]string{}, core...), "schema", "render", "wasm/abi") {
		for _, dep := range deps(p) {
			if isExport(dep) {
				t.Errorf("package %s depends on %s", p, dep)
			}
		}
	}
}

// nativeDeps lists the dependencies of module package p in the native
// (linux/amd64, no cgo) build, where the CLI links everything.
func nativeDeps(t *testing.T, p string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "./"+p)
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH=amd64", "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps ./%s: %v\n%s", p, err, out)
	}
	return strings.Fields(string(out))
}
