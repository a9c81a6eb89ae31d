package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestPluginImports: the plugins' own packages (wasm/..., the SDK) import
// none of fmt, reflect, encoding/json, os or unsafe; those reach the
// modules only through msgp's runtime, which the size baseline also has.
func TestPluginImports(t *testing.T) {
	forbidden := map[string]bool{"fmt": true, "reflect": true, "encoding/json": true, "os": true, "unsafe": true}
	for goos, pkg := range map[string]string{"wasip1": ".", "js": "../js"} {
		cmd := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}} {{join .Imports " "}}`, pkg)
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=wasm")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list: %v\n%s", err, out)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(line)
			if !strings.HasPrefix(f[0], "github.com/perfwire/perfwire/") {
				continue
			}
			for _, imp := range f[1:] {
				if forbidden[imp] {
					t.Errorf("GOOS=%s: %s imports %s", goos, f[0], imp)
				}
			}
		}
	}
}
