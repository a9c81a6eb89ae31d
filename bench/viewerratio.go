package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/render"
)

// The viewer's goals as ratios of the native CLI on the same files in
// the same run, since a browser's absolute time does not carry from one
// host to another: the 6.4 MB capture ready (module start included)
// within 8x `perfwire kpi --summary`, the 100 MB one at a quarter of its
// throughput or more, no main-thread task over 100 ms.
const (
	ratioReadyGoal = 8.0
	ratioRateGoal  = 0.25
	ratioTaskGoal  = 100 // ms
	nativeRuns     = 5
)

// ratioArchive and ratioMMV are the archive and the MMV file of the
// viewer's e2e tests, read by both sides.
var (
	ratioArchive = []string{"m3.meta", "m3.index", "m3.0", "m3.1", "m3.2"}
	ratioMMV     = "sample1.mmv"
)

// figViewerRatio times the viewer (viewer/bench.mjs) and the native CLI
// on the same captures, archive and MMV file, one after the other on
// this host. The CLI's time is a whole process's, start included, as the
// viewer's includes its page's module start.
func figViewerRatio(cfg Config) Figure {
	f := Figure{
		ID:    "viewer-ratio",
		Title: "Browser viewer against the native CLI on the same files, in the same run",
		Unit:  "load, from choosing the file to the view drawn, against one run of the CLI",
		Goal: fmt.Sprintf("6.4 MB ready ≤ %.0fx `perfwire kpi --summary` (module start included); 100 MB at ≥ 1/4 of its "+
			"throughput; no main-thread task > %d ms; time to first chart", ratioReadyGoal, ratioTaskGoal),
	}
	fail := func(msg string) Figure {
		f.Stats = append(f.Stats, Stat{Name: "viewer-ratio figure setup", Err: msg})
		return f
	}
	root, small, big, cleanup, err := viewerCaptures(false)
	if err != nil {
		return fail(err.Error())
	}
	defer cleanup()
	bin := filepath.Join(filepath.Dir(small), "perfwire")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "./cmd/perfwire")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return fail(fmt.Sprintf("go build ./cmd/perfwire: %v: %s", err, lastLines(out, 5)))
	}
	testdata := filepath.Join(root, "viewer/testdata")
	archFiles := make([]string, len(ratioArchive))
	for i, n := range ratioArchive {
		archFiles[i] = filepath.Join(testdata, n)
	}
	mmvFile := filepath.Join(testdata, ratioMMV)
	res, err := viewerBench(root, small, big, "--archive", strings.Join(archFiles, ","), "--mmv", mmvFile, "--native", bin)
	if err != nil {
		return fail(err.Error())
	}
	for what, l := range map[string]*viewerLoad{"6.4 MB": res.Small, "100 MB": res.Big, "archive": res.Archive, "MMV": res.MMV} {
		if l == nil || l.State != "done" {
			return fail("the viewer's " + what + " load did not end done")
		}
	}
	native := func(args ...string) (float64, error) { return nativeSeconds(bin, args...) }
	nSmall, err := native("kpi", "--summary", small)
	if err != nil {
		return fail(err.Error())
	}
	nBig, err := native("kpi", "--summary", big)
	if err != nil {
		return fail(err.Error())
	}
	nArch, err := native("archive", "--json", filepath.Join(testdata, "m3"))
	if err != nil {
		return fail(err.Error())
	}
	nMMV, err := native("mmv", mmvFile)
	if err != nil {
		return fail(err.Error())
	}
	// The CLI's process start alone: the same command on a capture with
	// no message in it.
	empty := filepath.Join(filepath.Dir(small), "empty.dlt")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		return fail(err.Error())
	}
	nStart, err := native("kpi", "--summary", empty)
	if err != nil {
		return fail(err.Error())
	}

	fSmall, err := viewerFloor(root, small)
	if err != nil {
		return fail(err.Error())
	}
	fBig, err := viewerFloor(root, big)
	if err != nil {
		return fail(err.Error())
	}
	dSmall, err := nativeDecodeSeconds(small)
	if err != nil {
		return fail(err.Error())
	}
	dBig, err := nativeDecodeSeconds(big)
	if err != nil {
		return fail(err.Error())
	}

	var md strings.Builder
	met, floors, checked := 0, 0, 0
	// row writes a table row; a goal's verdict is met, floor (a part of
	// the load measured in this run misses that goal on its own: floor
	// says which, with its numbers) or missed.
	row := func(what, viewer, cli, ratio, goal string, ok bool, floor string) {
		verdict := ""
		if goal != "" {
			checked++
			switch {
			case ok:
				met++
				verdict = "met"
			case floor != "":
				floors++
				verdict = "floor: " + floor
			default:
				verdict = "**missed**"
			}
		}
		fmt.Fprintf(&md, "| %s | %s | %s | %s | %s | %s |\n", what, viewer, cli, ratio, goal, verdict)
	}
	s, b := res.Small, res.Big
	mbSmall, mbBig := float64(s.Bytes)/1e6, float64(b.Bytes)/1e6
	// The module's own part of a load: compiled, instantiated with Go's
	// runtime started, and its calls; neither Node's start (a page does
	// not pay it) nor the worker's read-out of the results (viewer code).
	modStart := fSmall.CompileSeconds + fSmall.RunSeconds
	modSmall := modStart + fSmall.WasmSeconds
	modRate := nBig / fBig.WasmSeconds
	fmt.Fprintf(&md, "Host: %s, %s, %d logical CPUs; Chromium %s, headless; the CLI built from this tree, "+
		"each of its times the median of %d runs of the whole process (start included); the viewer's the median of its loads "+
		"(each in a fresh page; the 6.4 MB ones each just after a run of the CLI, judged by the median of the pairs' ratios).\n\n", cmdOut("uname", "-sr"), cpuModel(), runtime.NumCPU(), chromiumVersion(), nativeRuns)
	md.WriteString("| measure | perfwire viewer | native CLI | viewer ÷ native | goal | |\n|---|---|---|---|---|---|\n")
	// The ready goal is judged on pairs: each load beside a native run
	// taken just before it, the median of their ratios, so that a host
	// whose load changes during the figure moves both sides of a pair.
	ready, nPair, pairs := s.DrawnSeconds/nSmall, nSmall, ""
	if len(s.Natives) > 0 && len(s.Natives) == len(s.Runs) {
		ratios := make([]float64, len(s.Runs))
		txt := make([]string, len(s.Runs))
		for i, v := range s.Runs {
			ratios[i] = v / s.Natives[i]
			txt[i] = fmt.Sprintf("%.2f/%.3f", v, s.Natives[i])
		}
		_, ready, _ = summary(ratios)
		_, nPair, _ = summary(s.Natives)
		pairs = fmt.Sprintf("; median of %d pairs' ratios (viewer/native s: %s)", len(s.Runs), strings.Join(txt, ", "))
	}
	readyFloor := ""
	if modSmall/nSmall > ratioReadyGoal {
		readyFloor = fmt.Sprintf("the module alone %.1fx", modSmall/nSmall)
	} else if p := s.Parts; p != nil && (p.Module+p.Wasm)/nSmall > ratioReadyGoal {
		// The module's calls in this very load, warmed up or not.
		readyFloor = fmt.Sprintf("the module's start and calls in this load alone %.1fx", (p.Module+p.Wasm)/nSmall)
	}
	// missedBy says, for a ready time over the goal, which of the load's
	// measured parts fill the time allowed and by how much it is over.
	missedBy := ""
	if p := s.Parts; p != nil && ready > ratioReadyGoal {
		job := s.DrawnSeconds - p.Tail - p.Messages
		missedBy = fmt.Sprintf("\nThe %.1f MB load's %.2f s missed the %.0fx goal (%.3f s allowed) by %.2f s. Its parts, in this load: "+
			"the module's calls %.3f s (%.1fx the CLI's run on their own) and waiting for it to start %.3f s; in the worker besides, "+
			"reading their results into columns and posting them %.3f s, waiting for the file %.3f s, the rest of its job %.3f s; "+
			"the page's tail after the worker's end %.3f s (its script %.3f s, the rest layout, paint and waits) and the messages "+
			"%.3f s. The module's warm-up had decoded %.1f MB in the %.2f s between the module's start and the file.\n",
			mbSmall, s.DrawnSeconds, ratioReadyGoal, ratioReadyGoal*nPair, s.DrawnSeconds-ratioReadyGoal*nPair,
			p.Wasm, p.Wasm/nSmall, p.Module, p.Read, p.Input, job-p.Module-p.Wasm-p.Read-p.Input, p.Tail, p.TailPage, p.Messages,
			float64(s.Warm.Bytes)/1e6, s.Warm.Before)
	}
	row(fmt.Sprintf("%.1f MB capture chosen as the page opens: ready (decoded, chart and tables drawn; module start included) "+
		"against `perfwire kpi --summary`", mbSmall),
		fmt.Sprintf("%.2f s%s", s.DrawnSeconds, s.runs()), fmt.Sprintf("%.3f s (median of the runs paired with the loads)", nPair),
		fmt.Sprintf("%.1fx the time%s", ready, pairs),
		fmt.Sprintf("≤ %.0fx", ratioReadyGoal), ready <= ratioReadyGoal, readyFloor)
	rate := (float64(b.Bytes) / b.DrawnSeconds) / (float64(b.Bytes) / nBig)
	rateFloor := ""
	if modRate < ratioRateGoal {
		rateFloor = fmt.Sprintf("the module's decode alone %.2fx", modRate)
	}
	row(fmt.Sprintf("%.0f MB capture chosen once the viewer is ready: throughput against `perfwire kpi --summary`", mbBig),
		fmt.Sprintf("%.1f MB/s (%.2f s%s)", float64(b.Bytes)/b.DrawnSeconds/1e6, b.DrawnSeconds, b.runs()),
		fmt.Sprintf("%.1f MB/s (%.3f s)", float64(b.Bytes)/nBig/1e6, nBig), fmt.Sprintf("%.2fx the throughput", rate),
		"≥ 0.25x", rate >= ratioRateGoal, rateFloor)
	row("split, start: the module compiled, then instantiated with Go's runtime started until its calls are installed "+
		"(viewer/floor.mjs in Node's V8, the engine of Chromium; Node's own start before them, which a page does not pay, in brackets) — "+
		"beside the CLI's process start, `perfwire kpi --summary` on a capture with no message",
		fmt.Sprintf("%.3f s (compile %.3f s, instantiate and start %.3f s; Node %.3f s)", modStart, fSmall.CompileSeconds,
			fSmall.RunSeconds, fSmall.StartSeconds-modStart),
		fmt.Sprintf("%.3f s", nStart), fmt.Sprintf("%.1fx the time", modStart/nStart), "", false, "")
	for _, l := range []struct {
		what   string
		f      floorRun
		native float64
	}{{fmt.Sprintf("%.1f MB", mbSmall), fSmall, dSmall}, {fmt.Sprintf("%.0f MB", mbBig), fBig, dBig}} {
		row("split, decode, "+l.what+": the module's calls fed as the worker feeds them (64 KB pieces, the end, the process table), "+
			"then, apart, reading their results into the worker's columns (step.js, columns.js) — beside the same Go session code "+
			"run natively in one process on the same pieces (no process start, no output)",
			fmt.Sprintf("decode %.3f s; read-out %.3f s", l.f.WasmSeconds, l.f.ReadSeconds),
			fmt.Sprintf("decode %.3f s", l.native), fmt.Sprintf("decode %.1fx the time", l.f.WasmSeconds/l.native), "", false, "")
	}
	row(fmt.Sprintf("floor, %.1f MB: the module's own part of the ready time (its start and decode above), against the CLI's whole run", mbSmall),
		fmt.Sprintf("%.3f s", modSmall), fmt.Sprintf("%.3f s", nSmall), fmt.Sprintf("%.1fx the time", modSmall/nSmall), "", false, "")
	row(fmt.Sprintf("floor, %.0f MB: the module's decode alone (above), against the CLI's whole run", mbBig),
		fmt.Sprintf("%.1f MB/s (%.3f s)", float64(b.Bytes)/fBig.WasmSeconds/1e6, fBig.WasmSeconds),
		fmt.Sprintf("%.1f MB/s", float64(b.Bytes)/nBig/1e6), fmt.Sprintf("%.2fx the throughput", modRate), "", false, "")
	if c := res.BigCold; c != nil && c.State == "done" {
		row(fmt.Sprintf("%.0f MB chosen as the page opens (module still compiling; for the record)", float64(c.Bytes)/1e6),
			fmt.Sprintf("%.1f MB/s (%.2f s)", float64(c.Bytes)/c.DrawnSeconds/1e6, c.DrawnSeconds),
			fmt.Sprintf("%.1f MB/s", float64(c.Bytes)/nBig/1e6), fmt.Sprintf("%.2fx the throughput", nBig/c.DrawnSeconds), "", false, "")
	}
	longest := max(s.LongestTask, b.LongestTask)
	row("longest main-thread task while loading, over every KPI load (long-task observer; 0 = none over 50 ms)",
		fmt.Sprintf("%.0f ms (6.4 MB: %.0f, 100 MB: %.0f)", longest, s.LongestTask, b.LongestTask), "", "", fmt.Sprintf("≤ %d ms", ratioTaskGoal),
		longest <= ratioTaskGoal, "")
	for _, l := range []struct {
		what string
		l    *viewerLoad
		all  float64
	}{{"6.4 MB", s, s.DrawnSeconds}, {"100 MB", b, b.DrawnSeconds}} {
		fs := l.l.FirstScreen
		if fs == nil {
			row("time to first chart, "+l.what, "none drawn before the end", "", "", "drawn while decoding", false, "")
			continue
		}
		row("time to first chart (CPU chart and process table from the first batches), "+l.what,
			fmt.Sprintf("%.2f s (%.0f%% of the file decoded; ready at %.2f s)", fs.Seconds, 100*float64(fs.Fed)/float64(fs.Total), l.all),
			"", fmt.Sprintf("%.0f%% of the load", 100*fs.Seconds/l.all), "drawn while decoding", fs.Fed < fs.Total, "")
	}
	for _, l := range []struct {
		what string
		l    *viewerLoad
	}{{"6.4 MB", s}, {"100 MB", b}} {
		p := l.l.Parts
		if p == nil {
			continue
		}
		// The worker's job from its own clock: the page's Seconds end when
		// the done message is handled.
		job := l.l.DrawnSeconds - p.Tail - p.Messages
		other := job - p.Module - p.Wasm - p.Read - p.Input
		row("where the "+l.what+" load's time goes: the worker's job (waiting for the module to start, in its wasm calls, "+
			"reading their results into columns and posting them, waiting for the file, the rest: the process table's "+
			"MessagePack read, its collector), then the page's tail (the done message handled to the view drawn: its script, "+
			"the rest layout, paint and waits), and the messages between them (the open message waiting for the worker, "+
			"the done message on its way); the page's script in all, beside the worker's",
			fmt.Sprintf("ready %.2f s = worker %.2f s (module %.2f, wasm %.2f, read and post %.2f, input %.2f, rest %.2f) "+
				"+ tail %.2f s (script %.2f) + messages %.2f s; page %.2f s",
				l.l.DrawnSeconds, job, p.Module, p.Wasm, p.Read, p.Input, other, p.Tail, p.TailPage, p.Messages, p.Page),
			"", fmt.Sprintf("wasm %.0f%% of the load", 100*p.Wasm/l.l.DrawnSeconds), "", false, "")
	}
	row("PCP archive `viewer/testdata/m3` (39 KB, 3 volumes) chosen as the page opens, against `perfwire archive --json`",
		fmt.Sprintf("%.2f s%s", res.Archive.Seconds, res.Archive.runs()), fmt.Sprintf("%.3f s", nArch),
		fmt.Sprintf("%.1fx the time", res.Archive.Seconds/nArch), "", false, "")
	row("MMV file `viewer/testdata/sample1.mmv` (3 KB) chosen as the page opens, against `perfwire mmv`",
		fmt.Sprintf("%.2f s%s", res.MMV.Seconds, res.MMV.runs()), fmt.Sprintf("%.3f s", nMMV),
		fmt.Sprintf("%.1fx the time", res.MMV.Seconds/nMMV), "", false, "")
	fmt.Fprintf(&md, "\nThe split and floor rows show how far a goal is in reach, in the same run: the viewer's wasm module alone, "+
		"in the browser's engine with no page, against the CLI. Its own part of the %.1f MB load (start %.3f s, decode %.3f s) "+
		"was %.1fx the CLI's whole run (%.0fx allowed), its decode alone %.2fx the CLI's throughput on %.0f MB (%.2fx asked); "+
		"natively the CLI's run is its process start (%.3f s) and the same decode (%.3f s, %.3f s) with its output. "+
		"A goal marked floor is one the module's part alone misses: no work in the page or the worker reaches it "+
		"until the module (its Go code compiled to wasm, in V8) is faster; a goal marked missed is the viewer's own.\n",
		mbSmall, modStart, fSmall.WasmSeconds, modSmall/nSmall, ratioReadyGoal, modRate, mbBig, ratioRateGoal, nStart, dSmall, dBig)
	md.WriteString(missedBy)
	md.WriteString("\nThe archive and the MMV file are small: their loads are the page's module start and one round trip " +
		"to its worker, the CLI's a process start; they are listed for the record, with no goal.\n")
	f.Markdown = md.String()
	f.Verdict = verdictOf(met, checked)
	if floors > 0 && met+floors == checked {
		// Every goal the viewer misses, its module alone misses too.
		f.Verdict = "floor"
		f.Floor = fmt.Sprintf("Each goal missed here is missed by the module's own part alone, measured in this run "+
			"(start and decode of %.1f MB %.1fx the CLI's run; decode of %.0f MB %.2fx its throughput): see the split and floor rows.",
			mbSmall, modSmall/nSmall, mbBig, modRate)
	}
	f.SummaryNote = fmt.Sprintf("6.4 MB ready in %.1fx native (median of paired loads; %.2f s vs %.3f s); 100 MB at %.2fx native throughput; longest task %.0f ms",
		ready, s.DrawnSeconds, nPair, rate, longest)
	if fs := s.FirstScreen; fs != nil {
		f.SummaryNote += fmt.Sprintf("; first chart at %.2f s", fs.Seconds)
	}
	// The summary says which goals are at the floor, by the module's numbers.
	f.SummaryNote += fmt.Sprintf("; the module alone %.1fx / %.2fx", modSmall/nSmall, modRate)
	if readyFloor != "" && rateFloor != "" {
		f.SummaryNote += " (both at the floor)"
	} else if readyFloor != "" || rateFloor != "" {
		f.SummaryNote += " (floor: " + readyFloor + rateFloor + ")"
	}
	return f
}

// floorRun is what viewer/floor.mjs prints: StartSeconds (from Node's
// start) holds CompileSeconds and RunSeconds, DecodeSeconds WasmSeconds
// and ReadSeconds.
type floorRun struct {
	StartSeconds, CompileSeconds, RunSeconds float64
	DecodeSeconds, WasmSeconds, ReadSeconds  float64
}

// nativeDecodeSeconds is the median time of nativeRuns decodes of capture
// by the KPI stream session the module runs (render.KPISession), natively
// in this process, fed and read out as the worker feeds the module: 64 KB
// pieces, each step's result appended, then the end and the table.
func nativeDecodeSeconds(capture string) (float64, error) {
	data, err := os.ReadFile(capture)
	if err != nil {
		return 0, err
	}
	times := make([]float64, nativeRuns)
	var out []byte
	for i := range times {
		t0 := time.Now()
		k := render.NewKPIStream(dlt.FramingStorage)
		for at := 0; at < len(data); at += 64 << 10 {
			out = k.AppendProgress(out[:0], k.Run(render.KPICallFeed, data[at:min(at+64<<10, len(data))], 0))
		}
		out = k.AppendProgress(out[:0], k.Run(render.KPICallEnd, nil, 0))
		out = k.AppendTable(out[:0])
		times[i] = time.Since(t0).Seconds()
	}
	slices.Sort(times)
	return times[len(times)/2], nil
}

// viewerFloor runs viewer/floor.mjs on capture nativeRuns times with the
// module viewerBench built into viewer/dist, and returns the run of the
// median decode.
func viewerFloor(root, capture string) (floorRun, error) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return floorRun{}, fmt.Errorf("go env GOROOT: %v", err)
	}
	wasmExec := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js")
	runs := make([]floorRun, nativeRuns)
	for i := range runs {
		cmd := exec.Command("node", "floor.mjs", wasmExec, filepath.Join(root, "viewer/dist/perfwire.wasm"), capture)
		cmd.Dir = filepath.Join(root, "viewer")
		out, err := cmd.Output()
		if err != nil {
			return floorRun{}, fmt.Errorf("node floor.mjs: %v", err)
		}
		if err := json.Unmarshal(lastLine(out), &runs[i]); err != nil {
			return floorRun{}, fmt.Errorf("floor.mjs said %q (%v)", out, err)
		}
	}
	slices.SortFunc(runs, func(a, b floorRun) int { return cmp.Compare(a.DecodeSeconds, b.DecodeSeconds) })
	return runs[len(runs)/2], nil
}

// nativeSeconds is the median wall time of nativeRuns runs of bin with
// args, its output discarded.
func nativeSeconds(bin string, args ...string) (float64, error) {
	times := make([]float64, nativeRuns)
	for i := range times {
		cmd := exec.Command(bin, args...)
		devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			return 0, err
		}
		cmd.Stdout = devnull
		t0 := time.Now()
		err = cmd.Run()
		times[i] = time.Since(t0).Seconds()
		devnull.Close()
		if err != nil {
			return 0, fmt.Errorf("perfwire %s: %v", strings.Join(args, " "), err)
		}
	}
	slices.Sort(times)
	return times[len(times)/2], nil
}
