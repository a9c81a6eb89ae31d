package importcheck

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// core lists the packages that are compiled into wasm plugins.
var core = []string{"pcp", "pduwire", "labels", "eventrec", "mmv", "dlt", "dltkpi", "ltt", "archive"}

// forbidden may not be imported by a core package (DEVELOPERS.md).
var forbidden = []string{"fmt", "reflect", "encoding/json", "os"}

// heavy costs hundreds of KB in a plugin (measured for wasip1 with -s -w:
// fmt adds ≈ 0.7 MB, os ≈ 0.4 MB to a 1.8 MB runtime), so it may not
// be reached even indirectly. reflect is not here: encoding/binary, which
// the style guide allows, imports it for its struct codecs, and the linker
// keeps only the little of it that is used (≈ 13 KB measured).
var heavy = []string{"fmt", "encoding/json", "os"}

// goList runs `go list` for the given target and returns its output's
// fields.
func goList(t *testing.T, goos string, args ...string) []string {
	t.Helper()
	return strings.Fields(goListOutput(t, goos, args...))
}

// goListOutput runs `go list` at the module root for GOOS goos and
// GOARCH wasm and returns its output.
func goListOutput(t *testing.T, goos string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=wasm", "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list %v (GOOS=%s): %v\n%s", args, goos, err, out)
	}
	return string(out)
}

// TestCoreImportsWasm fails if a core package's wasm build imports one of
// the forbidden packages, or reaches a heavy one through another package.
func TestCoreImportsWasm(t *testing.T) {
	for _, goos := range []string{"wasip1", "js"} {
		for _, p := range core {
			direct := goList(t, goos, "-f", `{{join .Imports " "}}`, "./"+p)
			for _, imp := range direct {
				for _, f := range forbidden {
					if imp == f {
						t.Errorf("GOOS=%s: package %s imports %s", goos, p, f)
					}
				}
			}
			for _, dep := range goList(t, goos, "-deps", "./"+p) {
				for _, f := range heavy {
					if dep == f {
						t.Errorf("GOOS=%s: package %s depends on %s", goos, p, f)
					}
				}
			}
		}
	}
}

// TestNoCgoNoUnsafe enforces the module-wide rule: no cgo and no unsafe
// in any package of the main module (tests included).
func TestNoCgoNoUnsafe(t *testing.T) {
	const tmpl = `{{.ImportPath}} {{join .Imports ","}},{{join .TestImports ","}},{{join .XTestImports ","}} cgo={{len .CgoFiles}}`
	for _, goos := range []string{"linux", "wasip1"} {
		cmd := exec.Command("go", "list", "-f", tmpl, "./...")
		cmd.Dir = "../.."
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+map[string]string{"linux": "amd64", "wasip1": "wasm"}[goos])
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list: %v\n%s", err, out)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(line)
			if len(f) != 3 {
				t.Fatalf("unexpected go list line %q", line)
			}
			for _, imp := range strings.Split(f[1], ",") {
				if imp == "unsafe" || imp == "C" {
					t.Errorf("GOOS=%s: %s imports %s", goos, f[0], imp)
				}
			}
			if f[2] != "cgo=0" {
				t.Errorf("GOOS=%s: %s has cgo files", goos, f[0])
			}
		}
	}
}
