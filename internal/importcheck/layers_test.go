package importcheck

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/perfwire/perfwire/"

// layers are the packages of the WebAssembly stack, each above the ones
// before it: the core formats, then schema (the output schema's types),
// render (the writers of schema bytes) and wasm/abi (the module ABI). A
// package may import those of its layer or a lower one only: render
// knows nothing of WebAssembly, schema nothing of the writers.
var layers = [][]string{
	core,
	{"schema"},
	{"render"},
	{"wasm/abi"},
}

// layerOf is the layer of module package p, -1 outside the stack.
func layerOf(p string) int {
	for i, l := range layers {
		if slices.Contains(l, p) {
			return i
		}
	}
	if strings.HasPrefix(p, "wasm/") { // the modules and their hosts: above all
		return len(layers)
	}
	return -1
}

// TestLayers fails if a package of the stack imports one of a higher
// layer (tests included), or if schema, render or
// wasm/abi imports a package a wasm module cannot afford.
func TestLayers(t *testing.T) {
	const tmpl = `{{.ImportPath}} {{join .Imports ","}},{{join .TestImports ","}},{{join .XTestImports ","}}`
	for _, goos := range []string{"wasip1", "js"} {
		checked := 0
		for _, line := range goListLines(t, goos, "-f", tmpl, "./...") {
			f := strings.Fields(line)
			p, ok := strings.CutPrefix(f[0], module)
			from := layerOf(p)
			if !ok || len(f) != 2 || from < 0 || from >= len(layers) {
				continue
			}
			checked++
			for _, imp := range strings.Split(f[1], ",") {
				q, ok := strings.CutPrefix(imp, module)
				if to := layerOf(q); ok && to > from {
					t.Errorf("GOOS=%s: %s (layer %d) imports %s (layer %d)", goos, p, from, q, to)
				}
			}
		}
		if want := len(core) + 3; checked != want {
			t.Errorf("GOOS=%s: %d packages of the stack checked, want %d", goos, checked, want)
		}
		for _, p := range []string{"schema", "render", "wasm/abi"} {
			for _, imp := range goList(t, goos, "-f", `{{join .Imports " "}}`, "./"+p) {
				if slices.Contains(forbidden, imp) {
					t.Errorf("GOOS=%s: package %s imports %s", goos, p, imp)
				}
			}
		}
	}
}

// goListLines is goList's output by line.
func goListLines(t *testing.T, goos string, args ...string) []string {
	t.Helper()
	return strings.Split(strings.TrimSpace(goListOutput(t, goos, args...)), "\n")
}

// pluginRunner are the files of cmd/perfwire that may import wasm/abi:
// the plugin runner and its tests. The commands print schema bytes that
// render writes, and reach a plugin only through the runner.
func pluginRunner(name string) bool {
	return name == "plugin.go" || strings.HasPrefix(name, "plugin") && strings.HasSuffix(name, "_test.go")
}

// TestCmdImportsABIOnlyInPluginRunner fails if a file of cmd/perfwire
// other than the plugin runner's imports wasm/abi, or if the runner's
// plugin.go stops being the one that does (the test would then check
// nothing).
func TestCmdImportsABIOnlyInPluginRunner(t *testing.T) {
	files, err := filepath.Glob("../../cmd/perfwire/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("cmd/perfwire: %d files, %v", len(files), err)
	}
	runner := false
	fs := token.NewFileSet()
	for _, f := range files {
		af, err := parser.ParseFile(fs, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, is := range af.Imports {
			path, _ := strconv.Unquote(is.Path.Value)
			if !strings.HasPrefix(path, module+"wasm/") {
				continue
			}
			name := filepath.Base(f)
			if name == "plugin.go" {
				runner = true
			}
			if !pluginRunner(name) {
				t.Errorf("cmd/perfwire/%s imports %s: only the plugin runner may", name, path)
			}
		}
	}
	if !runner {
		t.Error("cmd/perfwire/plugin.go does not import wasm/abi")
	}
}
