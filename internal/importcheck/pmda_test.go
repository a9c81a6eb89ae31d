package importcheck

import (
	"strings"
	"testing"
)

// TestPMDAOutsideCore fails if a package of the WebAssembly stack depends
// on pmda, which runs goroutines, timers and os I/O for pmcd, or if pmda
// depends on the Parquet export: it is a server package over the core
// formats, beside pmapi, not under them.
func TestPMDAOutsideCore(t *testing.T) {
	deps := func(p string) []string { return nativeDeps(t, p) }
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
