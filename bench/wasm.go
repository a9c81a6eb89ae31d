package main

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perfwire/perfwire/render"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// The size budgets over a module holding only the Go runtime and
// msgp: a one-format module 400 KB raw, an all-formats module 1.0 MB raw
// and 250 KB gzip -9 (wasm/size checks them in `make test`).
const (
	oneFormatBudget  = 400 << 10
	allFormatsBudget = 1 << 20
	allFormatsGzip   = 250 << 10
)

// wasmCapture is the shared dlt-kpi capture the throughput rows decode.
const wasmCapture = "wasm/testdata/kpi-odd.dlt"

// wasmPair is a plugin module and the runtime+msgp baseline it is
// measured against, as `make wasm` leaves them in bin/.
type wasmPair struct {
	module, baseline, note string
	budget, gzBudget       int // raw and gzip -9 bytes over the baseline; 0: none
}

var wasmPairs = []wasmPair{
	{"perfwire.wasm", "baseline.wasm", "wasip1 reactor, every call", allFormatsBudget, allFormatsGzip},
	{"perfwire-js.wasm", "baseline-js.wasm", "GOOS=js, every call", allFormatsBudget, allFormatsGzip},
	{"perfwire-kpi.wasm", "baseline.wasm", "wasip1 -tags kpi", oneFormatBudget, 0},
	{"perfwire-pcp.wasm", "baseline.wasm", "wasip1 -tags pcp: PDUs, events, labels", oneFormatBudget, 0},
	{"perfwire-mmv.wasm", "baseline.wasm", "wasip1 -tags mmv", oneFormatBudget, 0},
	{"perfwire-dlt.wasm", "baseline.wasm", "wasip1 -tags dlt: dlt_decode", oneFormatBudget, 0},
	{"perfwire-archive.wasm", "baseline.wasm", "wasip1 -tags archive: archive_open, archive_next", oneFormatBudget, 0},
	{"perfwire-js-kpi.wasm", "baseline-js.wasm", "GOOS=js -tags kpi, the viewer's module", oneFormatBudget, 0},
	{"perfwire-js-pcp.wasm", "baseline-js.wasm", "GOOS=js -tags pcp", oneFormatBudget, 0},
	{"perfwire-js-mmv.wasm", "baseline-js.wasm", "GOOS=js -tags mmv", oneFormatBudget, 0},
	{"perfwire-js-dlt.wasm", "baseline-js.wasm", "GOOS=js -tags dlt", oneFormatBudget, 0},
	{"perfwire-js-archive.wasm", "baseline-js.wasm", "GOOS=js -tags archive", oneFormatBudget, 0},
}

func figWasm(cfg Config) Figure {
	f := Figure{
		ID:    "wasm",
		Title: "WebAssembly plugins: size over a runtime+msgp module, and kpi_decode in wazero vs native Go",
		Unit: "kpi_decode of " + filepath.Base(wasmCapture) + " (DLT scan, dlt-kpi decode, MessagePack result), " +
			"with wazero's side copying the input in and the result out",
		Goal: "over the runtime+msgp baseline, each all-formats module (wasip1, js) adds at most 1.0 MB raw and 250 KB gzip -9, each one-format module (tags kpi, pcp, mmv, dlt, archive) 400 KB raw",
	}
	// A setup failure is an error row, which fails the run (main).
	fail := func(msg string) Figure {
		f.Stats = append(f.Stats, Stat{Name: "wasm figure setup", Err: msg})
		return f
	}
	root, err := repoRoot()
	if err != nil {
		return fail(err.Error())
	}
	// The modules exactly as the Makefile builds them.
	if out, err := exec.Command("make", "-C", root, "--no-print-directory", "wasm").CombinedOutput(); err != nil {
		return fail(fmt.Sprintf("make wasm: %v: %s", err, lastLines(out, 5)))
	}
	var md strings.Builder
	var deltas []string
	met := true
	md.WriteString("Sizes of the modules `make wasm` builds (`-trimpath -ldflags='-s -w'`); gzip is `gzip -9`. " +
		"Each baseline has the same memory exports and one call that marshals a map with msgp " +
		"(wasm/plugin/baseline), so the difference is what perfwire's own code costs.\n\n")
	md.WriteString("| module | raw | gzip -9 | baseline | baseline raw | baseline gzip -9 | added raw | added gzip -9 | goal |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, p := range wasmPairs {
		m, err := moduleSize(filepath.Join(root, "bin", p.module))
		if err != nil {
			return fail(err.Error())
		}
		b, err := moduleSize(filepath.Join(root, "bin", p.baseline))
		if err != nil {
			return fail(err.Error())
		}
		goal := "+" + kb(p.budget)[1:] + " raw"
		if p.gzBudget > 0 {
			goal += ", +" + kb(p.gzBudget)[1:] + " gzip: "
		} else {
			goal += ": "
		}
		if m.raw-b.raw > p.budget || p.gzBudget > 0 && m.gz-b.gz > p.gzBudget {
			goal, met = goal+"**missed**", false
		} else {
			goal += "met"
		}
		deltas = append(deltas, fmt.Sprintf("%s %s", strings.TrimSuffix(p.module, ".wasm"), kb(m.raw-b.raw)))
		fmt.Fprintf(&md, "| %s (%s) | %d | %d | %s | %d | %d | %s | %s | %s |\n", p.module, p.note, m.raw, m.gz,
			p.baseline, b.raw, b.gz, kb(m.raw-b.raw), kb(m.gz-b.gz), goal)
	}
	f.Verdict = map[bool]string{true: "yes", false: "no"}[met]
	md.WriteString("\n")
	if err := wasmAttribution(root, &md); err != nil {
		return fail("attribution: " + err.Error())
	}
	base, err := moduleSize(filepath.Join(root, "bin", "baseline.wasm"))
	if err != nil {
		return fail(err.Error())
	}
	if err := wasmCallCosts(root, base.raw, &md); err != nil {
		return fail("calls alone: " + err.Error())
	}
	f.Markdown = md.String()

	// Throughput: the wasip1 module in wazero against the same call natively.
	mod, err := os.ReadFile(filepath.Join(root, "bin", "perfwire.wasm"))
	if err != nil {
		return fail(err.Error())
	}
	in, err := os.ReadFile(filepath.Join(root, wasmCapture))
	if err != nil {
		return fail(err.Error())
	}
	f.Bytes = len(in)
	h, err := newWasmHost(mod)
	if err != nil {
		return fail("wazero: " + err.Error())
	}
	f.cleanup = h.close
	f.Stats = compare(cfg, false, []Side{
		{Name: "perfwire.wasm in wazero " + wazeroVersion(), Run: func(n int) uint64 {
			var sum uint64
			for range n {
				out, err := h.run("kpi_decode", in, 0)
				if err != nil {
					return 0
				}
				sum = hash(out)
			}
			return sum
		}},
		{Name: "native Go (render.AppendKPIMessages)", Peer: true, Run: func(n int) uint64 {
			var sum uint64
			var out []byte
			for range n {
				out = render.AppendKPIMessages(out[:0], in, 0, 0)
				sum = hash(out)
			}
			return sum
		}},
	})
	checkSums(&f)
	f.Notes = append(f.Notes, "The ratio column is the module's speed inside wazero as a fraction of native Go "+
		"(native median ÷ wazero median); equal checksums mean both returned the same MessagePack bytes.")
	summary := "added " + strings.Join(deltas, ", ")
	if st := f.ours(); st != nil {
		if r := f.ratio(st); r != "" {
			summary += "; wazero at " + r + " of native"
		}
	}
	f.SummaryNote = summary
	return f
}

type sizes struct{ raw, gz int }

// moduleSize returns the raw and `gzip -9` size of a file.
func moduleSize(path string) (sizes, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return sizes{}, err
	}
	gz, err := exec.Command("gzip", "-9c", path).Output()
	if err != nil {
		return sizes{}, fmt.Errorf("gzip -9 %s: %v", path, err)
	}
	return sizes{len(b), len(gz)}, nil
}

// wasmAttribution builds the wasip1 plugin and baseline again without
// -s -w (same flags otherwise), so that their name sections say which
// package each function body belongs to, and writes the per-package
// difference.
func wasmAttribution(root string, md *strings.Builder) error {
	dir, err := os.MkdirTemp("", "perfwire-bench-wasm-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var lay [2]wasmLayout
	for i, pkg := range []string{"./wasm/plugin", "./wasm/plugin/baseline"} {
		out := filepath.Join(dir, fmt.Sprint(i, ".wasm"))
		cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-o", out, pkg)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %v: %s", pkg, err, lastLines(b, 5))
		}
		b, err := os.ReadFile(out)
		if err != nil {
			return err
		}
		if lay[i], err = layoutOf(b); err != nil {
			return err
		}
	}
	p, b := lay[0], lay[1]
	type row struct {
		pkg        string
		plugin, in int
	}
	var rows []row
	for pkg, n := range p.Pkg {
		if d := n - b.Pkg[pkg]; d != 0 {
			rows = append(rows, row{pkg, n, b.Pkg[pkg]})
		}
	}
	slices.SortFunc(rows, func(x, y row) int { return (y.plugin - y.in) - (x.plugin - x.in) })
	md.WriteString("Where the wasip1 module's added bytes go. Function bodies are charged to their Go package " +
		"by the name section of builds without `-s -w`; a generic function instantiated for a perfwire " +
		"type is charged to its package \"for\" that type's package. The data section (read-only data, " +
		"the pclntab with every function's name and tables, type descriptors) has no symbols in a wasm " +
		"module, so it is one row; it grows with the number and names of the functions.\n\n")
	md.WriteString("| package | plugin code | baseline code | added |\n|---|---|---|---|\n")
	small := 0
	for _, r := range rows {
		if d := r.plugin - r.in; d < 1024 && d > -1024 {
			small += d
			continue
		}
		fmt.Fprintf(md, "| %s | %d | %d | %s |\n", r.pkg, r.plugin, r.in, kb(r.plugin-r.in))
	}
	fmt.Fprintf(md, "| other packages (each under 1 KB) | | | %s |\n", kb(small))
	fmt.Fprintf(md, "| **all function bodies** | %d | %d | %s |\n", p.Code, b.Code, kb(p.Code-b.Code))
	fmt.Fprintf(md, "| data section | %d | %d | %s |\n", p.Data, b.Data, kb(p.Data-b.Data))
	fmt.Fprintf(md, "| other sections (imports, exports, and the name section `-s` strips) | %d | %d | %s |\n\n", p.Other, b.Other, kb(p.Other-b.Other))
	return nil
}

// kb formats a byte difference as signed KB (1024 bytes).
func kb(n int) string { return fmt.Sprintf("%+.1f KB", float64(n)/1024) }

func hash(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], " / ")
}

// repoRoot is the perfwire checkout the harness runs in.
func repoRoot() (string, error) {
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", fmt.Errorf("git rev-parse --show-toplevel: %v", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// wazeroVersion reads wazero's version from the build information.
func wazeroVersion() string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}}", "github.com/tetratelabs/wazero").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// wasmHost is one instance of the wasip1 module in wazero, driven through
// the ABI's handle protocol (wasm/ABI.md).
type wasmHost struct {
	ctx context.Context
	rt  wazero.Runtime
	mod api.Module
	fn  map[string]api.Function
}

func newWasmHost(module []byte) (*wasmHost, error) {
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	mod, err := rt.InstantiateWithConfig(ctx, module, wazero.NewModuleConfig().WithStartFunctions("_initialize"))
	if err != nil {
		rt.Close(ctx)
		return nil, err
	}
	h := &wasmHost{ctx: ctx, rt: rt, mod: mod, fn: map[string]api.Function{}}
	for _, name := range []string{"alloc", "buf_ptr", "buf_len", "free", "kpi_decode"} {
		if h.fn[name] = mod.ExportedFunction(name); h.fn[name] == nil {
			rt.Close(ctx)
			return nil, fmt.Errorf("no export %q", name)
		}
	}
	return h, nil
}

func (h *wasmHost) close() { h.rt.Close(h.ctx) }

func (h *wasmHost) call(name string, args ...uint64) (uint64, error) {
	fn := h.fn[name]
	if fn == nil {
		if fn = h.mod.ExportedFunction(name); fn == nil {
			return 0, fmt.Errorf("no export %q", name)
		}
		h.fn[name] = fn
	}
	res, err := fn.Call(h.ctx, args...)
	if err != nil || len(res) == 0 {
		return 0, err
	}
	return res[0], nil
}

// run copies in into a module buffer, calls export name on it, and
// returns a copy of the result, freeing both buffers.
func (h *wasmHost) run(name string, in []byte, args ...uint64) ([]byte, error) {
	hin, err := h.call("alloc", uint64(len(in)))
	if err != nil || hin == 0 {
		return nil, fmt.Errorf("alloc(%d): %v", len(in), err)
	}
	defer h.call("free", hin)
	ptr, _ := h.call("buf_ptr", hin)
	if !h.mod.Memory().Write(uint32(ptr), in) {
		return nil, fmt.Errorf("input out of range")
	}
	hr, err := h.call(name, append([]uint64{hin}, args...)...)
	if err != nil || hr == 0 {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	defer h.call("free", hr)
	ptr, _ = h.call("buf_ptr", hr)
	n, _ := h.call("buf_len", hr)
	view, ok := h.mod.Memory().Read(uint32(ptr), uint32(n))
	if !ok {
		return nil, fmt.Errorf("result out of range")
	}
	return bytes.Clone(view), nil
}
