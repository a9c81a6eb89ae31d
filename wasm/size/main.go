// Command size builds perfwire's WebAssembly modules as `make wasm` ships
// them and prints each one's size against its budget: a
// one-format module (build tag kpi, pcp, mmv, dlt or archive) may add 400 KB raw to the
// runtime+msgp baseline of its GOOS; an all-formats module 1.0 MB (1024 KB) raw
// and 250 KB gzip -9. gzip -9 is the gzip command, as the budget names it
// and as bench/RESULTS.md measures it (Go's compress/gzip at its best
// compression gave 0.3-4 KB more on these modules). A broken budget is
// printed as BROKEN; with -check the command also exits 1
// (TestSizeBudgets is the check `make test` runs).
//
//	go run ./wasm/size [-dir bin] [-check]
//
// What decides the size (measured on 2026-11-27 over the all-formats
// modules; bench/RESULTS.md's wasm figure has their sizes): each
// function costs about 640 bytes of code and 275 of data with its call
// site, the data being the linker's tables, not perfwire's (names and
// pc-value tables in the pclntab; findfunctab spends 320 bytes per
// function, a wasm function spanning 64 KB of PC space); each call site
// and bounds check is code. So what pays is fewer functions (one-caller
// functions folded, one failure call per decoder), large results written
// in place rather than built as schema values and marshalled (the
// writers' tests hold their bytes to the generated MarshalMsg), no
// standard-library call linked for a few lines. gzip lags raw: a
// function removed takes tables along that compress to little, and
// merging repeated call sequences can shrink raw and grow gzip (as
// encgen writing a run of fields in one call did). gzip also moves by
// 0.5-1 KB with layout alone: judge a small cut by the compressed size
// of the code section, or batch several. No change:
// GOWASM=satconv,signext (nor in speed, in Node); larger: -gcflags=-l.
// Profile-guided optimisation on a native profile of the throughput
// plugin figures' calls (`cd bench && go run . -pgo FILE`) makes the
// all-formats js module 3-18 % faster in Node but +20 KB gzip, past its
// budget; a profile of mmv_read alone still adds 6 KB.
//
// The rules the packages follow for it, which their comments cite as
// "module size; see wasm/size":
//
//   - One failure call and one return per decoder: each call of an error
//     constructor, and each return of a zero value, is code; a fail
//     helper kept out of line, taking its kind as one word.
//   - A function with one caller is folded into it; a small function
//     with many callers (a big-endian read, an ID's text) is kept out of
//     line (//go:noinline), as its inlined copies are more code than the
//     calls. Hot per-value reads stay inlined: speed first there.
//   - No standard-library general algorithm linked for a few lines:
//     slices.Sort and SortStableFunc instantiations, bytes.Index, strconv's
//     parsers, time's formatter, slices.Delete/Insert are written out for
//     the case at hand, and one sort of indexes serves every list.
//   - Types the modules allocate are not comparable ([0]func()), so no
//     equality function is linked; pointer receivers, so no wrappers.
//   - Shared error kinds are aliased by address (&wire.Truncated), static
//     data rather than init code; values that need a table are read
//     only when asked, so a program that does not ask links no table.
//   - Bounds are proved by re-slicing the rest of the input, not
//     checked again at each read of a cursor.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
)

// KB is 1024 bytes, as bench/RESULTS.md counts them.
const KB = 1 << 10

// module is one build: its file, GOOS, package, tags, the baseline it is
// measured against and its budgets (0: none).
type module struct {
	file, goos, pkg, tags, baseline string
	rawBudget, gzipBudget           int
}

var modules = slices.Concat([]module{
	{file: "baseline.wasm", goos: "wasip1", pkg: "./wasm/plugin/baseline"},
	{file: "baseline-js.wasm", goos: "js", pkg: "./wasm/plugin/baseline"},
}, builds("perfwire", "wasip1", "./wasm/plugin", "baseline.wasm"),
	builds("perfwire-js", "js", "./wasm/js", "baseline-js.wasm"))

// builds are one GOOS's modules, named from prefix: every format, then
// one format a module, each measured against baseline.
func builds(prefix, goos, pkg, baseline string) []module {
	ms := []module{{prefix + ".wasm", goos, pkg, "", baseline, 1024 * KB, 250 * KB}}
	for _, tag := range []string{"kpi", "pcp", "mmv", "dlt", "archive"} {
		ms = append(ms, module{prefix + "-" + tag + ".wasm", goos, pkg, tag, baseline, 400 * KB, 0})
	}
	return ms
}

// size is a module's raw and gzip -9 size.
type size struct{ raw, gz int }

// build builds m into dir from the module root root.
func build(root, dir string, m module) error {
	args := []string{"build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, m.file)}
	if m.goos == "wasip1" {
		args = append(args, "-buildmode=c-shared")
	}
	if m.tags != "" {
		args = append(args, "-tags", m.tags)
	}
	cmd := exec.Command("go", append(args, m.pkg)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS="+m.goos, "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build %s: %v\n%s", m.file, err, out)
	}
	return nil
}

func measure(path string) (size, error) {
	st, err := os.Stat(path)
	if err != nil {
		return size{}, err
	}
	gz, err := exec.Command("gzip", "-9c", path).Output()
	if err != nil {
		return size{}, fmt.Errorf("gzip -9 %s: %v", path, err)
	}
	return size{int(st.Size()), len(gz)}, nil
}

// run builds every module into dir, prints the table to w and returns
// the budgets broken.
func run(root, dir string, w io.Writer) ([]string, error) {
	sizes := map[string]size{}
	for _, m := range modules {
		if err := build(root, dir, m); err != nil {
			return nil, err
		}
		s, err := measure(filepath.Join(dir, m.file))
		if err != nil {
			return nil, err
		}
		sizes[m.file] = s
	}
	var broken []string
	fmt.Fprintf(w, "%-22s %9s %8s  %-16s %9s %8s  %s\n", "module", "raw", "gzip -9", "over", "+raw", "+gzip", "budget")
	for _, m := range modules {
		s := sizes[m.file]
		if m.baseline == "" {
			fmt.Fprintf(w, "%-22s %9d %8d\n", m.file, s.raw, s.gz)
			continue
		}
		b := sizes[m.baseline]
		draw, dgz := s.raw-b.raw, s.gz-b.gz
		verdict := fmt.Sprintf("+%d KB raw", m.rawBudget/KB)
		if m.gzipBudget > 0 {
			verdict += fmt.Sprintf(", +%d KB gzip", m.gzipBudget/KB)
		}
		if draw > m.rawBudget || m.gzipBudget > 0 && dgz > m.gzipBudget {
			verdict += ": BROKEN"
			broken = append(broken, fmt.Sprintf("%s adds %d bytes raw, %d gzip -9 over %s (%s)", m.file, draw, dgz, m.baseline, verdict))
		} else {
			verdict += ": met"
		}
		fmt.Fprintf(w, "%-22s %9d %8d  %-16s %+8.1fK %+7.1fK  %s\n", m.file, s.raw, s.gz, m.baseline, float64(draw)/KB, float64(dgz)/KB, verdict)
	}
	return broken, nil
}

func main() {
	dir := flag.String("dir", "bin", "where to write the modules")
	check := flag.Bool("check", false, "exit 1 when a budget is broken")
	flag.Parse()
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	broken, err := run(".", *dir, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, b := range broken {
		fmt.Fprintln(os.Stderr, "size budget broken:", b)
	}
	if *check && len(broken) > 0 {
		os.Exit(1)
	}
}
