package readmecheck

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// header declares what the snippets may use: the SDK's packages, a
// context, and three byte slices (a PDU stream, a value block, file data).
const header = `package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/dltkpi"
	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/labels"
	"github.com/perfwire/perfwire/ltt/tracedir"
	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/mmv/mmvfile"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/pmapi"
	"github.com/perfwire/perfwire/pmda"
)

var (
	_ = errors.Is
	_ = os.DirFS
	_ = fmt.Println
	_ = dlt.NewScanner
	_ = dltkpi.NewTracker
	_ = eventrec.Parse
	_ = labels.Parse
	_ = tracedir.Open
	_ = mmv.NewReader
	_ = mmvfile.Create
	_ = pcp.NewID
	_ = pduwire.NewScanner
	_ = pmapi.Dial
	_ = pmda.New
)

func main() { _ = run(context.Background(), nil, nil, nil) }

func run(ctx context.Context, stream, block, data []byte) error {
`

// TestReadmeSnippetsCompile puts every ```go block of README.md in its own
// scope of one function and builds the result as a package of the module.
func TestReadmeSnippetsCompile(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllSubmatch(readme, -1)
	if len(blocks) < 5 {
		t.Fatalf("README has only %d Go snippets", len(blocks))
	}
	var src strings.Builder
	src.WriteString(header)
	for _, b := range blocks {
		src.WriteString("\t{\n")
		src.Write(b[1])
		src.WriteString("\t}\n")
	}
	src.WriteString("\treturn nil\n}\n")

	// An overlay adds the generated file to the module without writing
	// into the source tree.
	dir := t.TempDir()
	file := filepath.Join(dir, "main.go")
	if err := os.WriteFile(file, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	target, err := filepath.Abs("snippets/main.go")
	if err != nil {
		t.Fatal(err)
	}
	overlay, _ := json.Marshal(map[string]map[string]string{"Replace": {target: file}})
	ov := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ov, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-overlay", ov, "-o", os.DevNull, "./snippets")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("README snippets do not compile: %v\n%s\n--- generated:\n%s", err, out, src.String())
	}
}
