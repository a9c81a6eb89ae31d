package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
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

// TestImportsDocumented: ABI.md lists exactly the WASI functions the
// wasip1 module imports.
func TestImportsDocumented(t *testing.T) {
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	m, err := rt.CompileModule(ctx, moduleBytes)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(readFile(t, "../ABI.md"))
	_, section, _ := strings.Cut(doc, "### WASI imports")
	section, _, _ = strings.Cut(section, "A runtime's")
	imported := map[string]bool{}
	for _, f := range m.ImportedFunctions() {
		mod, name, _ := f.Import()
		if mod != "wasi_snapshot_preview1" {
			t.Errorf("import %s.%s is not WASI preview 1", mod, name)
		}
		imported[name] = true
		if !strings.Contains(section, "`"+name+"`") {
			t.Errorf("ABI.md does not list the import %s", name)
		}
	}
	if n := strings.Count(section, "`") / 2; n != len(imported)+1 { // +1: the module name
		t.Errorf("ABI.md lists %d names, the module imports %d functions", n-1, len(imported))
	}
}
