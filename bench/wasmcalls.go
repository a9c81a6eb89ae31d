package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// wasmCallGroups are the plugin's calls in the groups a host uses them.
// Each group is built alone, as a wasip1 reactor whose one export makes
// those calls and marshals their results (with the functions the call
// table runs: kpi_decode, dlt_decode, archive_next, pdu_decode, mmv_read, mmv_serve, events_decode, labels_canon and labels_merge write in place), to
// show what it costs over the runtime+msgp baseline by itself.
var wasmCallGroups = []struct{ name, body string }{
	{"none: error results only (the ABI's plumbing)", ""},
	{"kpi_decode", "out = render.AppendKPIMessages(out[:0], buf, int(n), 0)"},
	{"KPI sessions and streams (kpi_open, kpi_step, kpi_table, kpi_stream, kpi_feed, kpi_end)",
		"s := render.NewKPISession(buf); st := s.Step(int(n)); put(&st); t := s.Table(); put(&t)\n" +
			"\ts = render.NewKPIStream(0); st = s.Feed(buf); put(&st); st = s.End(); put(&st)"},
	{"pdu_decode", "out = render.AppendPDUs(out[:0], buf, 0)"},
	{"mmv_read", "out = render.AppendMMV(out[:0], buf, n == 0)"},
	{"labels_canon, labels_merge", "out = render.AppendLabels(out[:0], buf, false); out = render.AppendLabels(out, buf, true)"},
	{"events_decode", "out = render.AppendEvents(out[:0], buf)"},
	{"mmv_serve", "var q schema.MMVServeInput; q.UnmarshalMsg(buf); out = render.AppendMMVServe(out[:0], &q)"},
	{"dlt_decode", "out = render.AppendDLTDecode(out[:0], buf)"},
	{"archive_open, archive_next", "var q schema.ArchiveInput; q.UnmarshalMsg(buf); s := render.NewArchiveSession(q); out = s.AppendNext(out[:0], int(n))"},
}

const wasmCallMain = `package main

import (
	"github.com/perfwire/perfwire/render"
	"github.com/perfwire/perfwire/schema"
)

func main() {}

const _ = render.MaxLabelSets // a group may use no writer

var buf, out []byte

func put(m interface{ MarshalMsg([]byte) ([]byte, error) }) { out, _ = m.MarshalMsg(nil) }

//go:wasmexport run
func run(n uint32) {
	put(schema.Failure(schema.ErrBadHandle))
	%s
}
`

// wasmCallCosts builds each call group alone in a throw-away module that
// uses this checkout, with the Makefile's flags, and writes the table of
// what each adds to the baseline (base bytes).
func wasmCallCosts(root string, base int, md *strings.Builder) error {
	dir, err := os.MkdirTemp("", "perfwire-bench-wasmcalls-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	gomod := "module wasmcost\n\ngo 1.26\n\nrequire github.com/perfwire/perfwire v0.0.0\n\nreplace github.com/perfwire/perfwire => " + root + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		return err
	}
	md.WriteString("What each group of calls costs when a module carries only it (a reactor built like perfwire.wasm " +
		"whose one export makes those calls; the groups share code, so the rows add up to more than the full module).\n\n")
	md.WriteString("| calls built alone | raw | added to the baseline |\n|---|---|---|\n")
	for i, g := range wasmCallGroups {
		pkg := filepath.Join(dir, fmt.Sprint("g", i))
		if err := os.Mkdir(pkg, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(pkg, "main.go"), fmt.Appendf(nil, wasmCallMain, g.body), 0o644); err != nil {
			return err
		}
		out := filepath.Join(dir, fmt.Sprint("g", i, ".wasm"))
		cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, "./"+filepath.Base(pkg))
		cmd.Dir = dir
		// -mod=mod lets go record msgp's version, which comes from perfwire's go.mod.
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "GOFLAGS=-mod=mod")
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v: %s", g.name, err, lastLines(b, 5))
		}
		fi, err := os.Stat(out)
		if err != nil {
			return err
		}
		fmt.Fprintf(md, "| %s | %d | %s |\n", g.name, fi.Size(), kb(int(fi.Size())-base))
	}
	md.WriteString("\n")
	return nil
}
