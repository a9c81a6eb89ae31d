package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The viewer's goals: a 6.4 MB capture decoded and drawn in
// 1.5 s, no main-thread task over 200 ms while loading, 40 MB/s end to end
// on 100 MB with the page's memory under 3x the file, a zoom or pan
// redrawn within a 60 Hz frame.
const (
	viewerSmallCopies = 40  // kpi-odd.dlt back to back: 6.4 MB
	viewerBigCopies   = 640 // 102 MB
	viewerLoadGoal    = 1.5 // s
	viewerTaskGoal    = 200 // ms
	viewerRateGoal    = 40e6
	viewerMemGoal     = 3.0
	viewerRedrawGoal  = 16.0 // ms
)

// viewerResult is what viewer/bench.mjs prints.
type viewerResult struct {
	Small, Big, BigCold, Archive, MMV *viewerLoad
}

// viewerBench builds the viewer, serves viewer/dist on loopback and runs
// viewer/bench.mjs in Debian's Chromium on the captures small and big
// (none if ""); extra are bench.mjs's options (--archive, --mmv).
func viewerBench(root, small, big string, extra ...string) (*viewerResult, error) {
	for _, script := range []string{"scripts/web-deps.sh", "scripts/web-build.sh"} {
		if out, err := exec.Command("bash", filepath.Join(root, script)).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("%s: %v: %s", script, err, lastLines(out, 5))
		}
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join(root, "viewer/dist"))))
	defer srv.Close()
	args := []string{"bench.mjs", srv.URL, small}
	if big != "" {
		args = append(args, big)
	}
	cmd := exec.Command("node", append(args, extra...)...)
	cmd.Dir = filepath.Join(root, "viewer")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("node bench.mjs: %v: %s", err, lastLines(stderr.Bytes(), 5))
	}
	var res viewerResult
	if err := json.Unmarshal(lastLine(out), &res); err != nil {
		return nil, fmt.Errorf("bench.mjs said %q (%v)", out, err)
	}
	return &res, nil
}

// viewerCaptures writes the figures' captures into a temporary directory
// and returns the checkout's root and their paths: kpi-odd.dlt
// viewerSmallCopies times back to back, and unless quick viewerBigCopies
// times (big is "" when quick).
func viewerCaptures(quick bool) (root, small, big string, cleanup func(), err error) {
	if root, err = repoRoot(); err != nil {
		return "", "", "", nil, err
	}
	capture, err := os.ReadFile(filepath.Join(root, "viewer/testdata/kpi-odd.dlt"))
	if err != nil {
		return "", "", "", nil, err
	}
	dir, err := os.MkdirTemp("", "perfwire-bench-viewer-")
	if err != nil {
		return "", "", "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	small = filepath.Join(dir, "small.dlt")
	if err := os.WriteFile(small, bytes.Repeat(capture, viewerSmallCopies), 0o644); err != nil {
		cleanup()
		return "", "", "", nil, err
	}
	if !quick {
		big = filepath.Join(dir, "big.dlt")
		if err := os.WriteFile(big, bytes.Repeat(capture, viewerBigCopies), 0o644); err != nil {
			cleanup()
			return "", "", "", nil, err
		}
	}
	return root, small, big, cleanup, nil
}

type viewerLoad struct {
	State        string
	Bytes        int64
	Seconds      float64
	DrawnSeconds float64
	Samples      int
	LongestTask  float64   `json:"longestTaskMs"`
	Redraw       float64   `json:"redrawMs"`
	RSSBefore    int64     `json:"rssBefore"`
	RSSPeak      int64     `json:"rssPeak"`
	Runs         []float64 // every load's DrawnSeconds; the figures are the median load's
	// Natives, when bench.mjs ran the native CLI just before each load
	// (--native), holds those runs' seconds in Runs' order.
	Natives     []float64
	FirstScreen *struct {
		Seconds    float64
		Fed, Total int64
	}
	// Parts says where a KPI load's time went, in seconds (viewer/README.md,
	// stats.parts); the worker's overlap the page's. Messages, the worker's
	// Seconds and Tail add up to DrawnSeconds.
	Parts *struct{ Module, Wasm, Read, Input, Page, Tail, TailPage, Messages float64 }
	// Warm is what the worker's warm-up had decoded (bytes) and for how
	// long the module had been started (seconds) when the file came.
	Warm struct {
		Bytes  int64
		Before float64
	}
}

// runs says which loads a figure is the median of.
func (l *viewerLoad) runs() string {
	if len(l.Runs) < 2 {
		return ""
	}
	s := make([]string, len(l.Runs))
	for i, r := range l.Runs {
		s[i] = fmt.Sprintf("%.2f", r)
	}
	return fmt.Sprintf("; median of %d loads: %s s", len(l.Runs), strings.Join(s, ", "))
}

// figViewer times the browser viewer (viewer/) in Debian's Chromium with
// viewer/bench.mjs. The quick run loads only the small capture.
func figViewer(cfg Config, quick bool) Figure {
	f := Figure{
		ID:    "viewer",
		Title: "Browser viewer: a dlt-kpi capture decoded in a worker and drawn, in headless Chromium",
		Unit:  "load of the capture, from choosing the file to the chart and tables drawn",
		Goal: "6.4 MB decoded and drawn ≤ 1.5 s; no main-thread task > 200 ms; 100 MB at ≥ 40 MB/s " +
			"with page memory ≤ 3x the file; zoom and pan redrawn ≤ 16 ms",
	}
	fail := func(msg string) Figure {
		f.Stats = append(f.Stats, Stat{Name: "viewer figure setup", Err: msg})
		return f
	}
	root, small, big, cleanup, err := viewerCaptures(quick)
	if err != nil {
		return fail(err.Error())
	}
	defer cleanup()
	res, err := viewerBench(root, small, big)
	if err != nil {
		return fail(err.Error())
	}
	if res.Small == nil || res.Small.State != "done" {
		return fail("the small load did not end done")
	}
	var md strings.Builder
	met, checked := 0, 0
	row := func(what, got, goal string, ok bool) {
		checked++
		verdict := "**missed**"
		if ok {
			met++
			verdict = "met"
		}
		fmt.Fprintf(&md, "| %s | %s | %s | %s |\n", what, got, goal, verdict)
	}
	s := res.Small
	md.WriteString(fmt.Sprintf("Capture: `viewer/testdata/kpi-odd.dlt` (a real dlt-kpi recording, 452 messages) %d times back to back: "+
		"%.1f MB, %d ACT groups charted; Chromium %s, headless, on this machine.\n\n", viewerSmallCopies, float64(s.Bytes)/1e6, s.Samples, chromiumVersion()))
	md.WriteString("| measure | perfwire viewer | goal | |\n|---|---|---|---|\n")
	row(fmt.Sprintf("%.1f MB: file chosen → decoded, chart and tables drawn", float64(s.Bytes)/1e6),
		fmt.Sprintf("%.2f s (%.1f MB/s%s)", s.DrawnSeconds, float64(s.Bytes)/s.DrawnSeconds/1e6, s.runs()), "≤ 1.5 s", s.DrawnSeconds <= viewerLoadGoal)
	row("longest main-thread task while loading, the longest of the loads (long-task observer; 0 = none over 50 ms)",
		fmt.Sprintf("%.0f ms", s.LongestTask), "≤ 200 ms", s.LongestTask <= viewerTaskGoal)
	row(fmt.Sprintf("zoom or pan redraw, median of 60, %d ACT groups × up to 10 series", s.Samples),
		fmt.Sprintf("%.1f ms", s.Redraw), "≤ 16 ms", s.Redraw <= viewerRedrawGoal)
	if b := res.Big; b != nil {
		if b.State != "done" {
			return fail("the 100 MB load ended in state " + b.State)
		}
		rate := float64(b.Bytes) / b.DrawnSeconds
		row(fmt.Sprintf("%.0f MB: end-to-end rate (chosen once the viewer is ready)", float64(b.Bytes)/1e6),
			fmt.Sprintf("%.1f MB/s (%.2f s%s)", rate/1e6, b.DrawnSeconds, b.runs()), "≥ 40 MB/s", rate >= viewerRateGoal)
		grow := float64(b.RSSPeak-b.RSSBefore) / float64(b.Bytes)
		row(fmt.Sprintf("%.0f MB: renderer memory grown while loading (resident, page + worker; the most of the loads)", float64(b.Bytes)/1e6),
			fmt.Sprintf("%.0f MB = %.1fx the file (peak %.0f MB, %.0f MB before)", float64(b.RSSPeak-b.RSSBefore)/1e6, grow,
				float64(b.RSSPeak)/1e6, float64(b.RSSBefore)/1e6), "≤ 3x the file", grow <= viewerMemGoal)
		row(fmt.Sprintf("%.0f MB: longest main-thread task", float64(b.Bytes)/1e6),
			fmt.Sprintf("%.0f ms", b.LongestTask), "≤ 200 ms", b.LongestTask <= viewerTaskGoal)
	}
	if c := res.BigCold; c != nil && c.State == "done" {
		// For the record, not a goal: the same load with the file chosen
		// as the page opens, the module still compiling and cold.
		fmt.Fprintf(&md, "| %.0f MB chosen as the page opens (module still compiling; for the record) | %.1f MB/s (%.2f s), longest task %.0f ms | | |\n",
			float64(c.Bytes)/1e6, float64(c.Bytes)/c.DrawnSeconds/1e6, c.DrawnSeconds, c.LongestTask)
	}
	md.WriteString("\nThe browser's memory is the renderer processes' resident set sampled every 100 ms from /proc; " +
		"the page before loading (runtime, wasm module) is the baseline it grows from.\n")
	f.Markdown = md.String()
	f.Verdict = verdictOf(met, checked)
	f.SummaryNote = fmt.Sprintf("%.1f MB in %.2f s; redraw %.1f ms", float64(s.Bytes)/1e6, s.DrawnSeconds, s.Redraw)
	if b := res.Big; b != nil {
		f.SummaryNote += fmt.Sprintf("; 100 MB at %.1f MB/s, memory +%.1fx", float64(b.Bytes)/b.DrawnSeconds/1e6,
			float64(b.RSSPeak-b.RSSBefore)/float64(b.Bytes))
	}
	return f
}

// lastLine returns the last non-empty line of b.
func lastLine(b []byte) []byte {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	return lines[len(lines)-1]
}

// chromiumVersion is what Debian's chromium says it is.
func chromiumVersion() string {
	out, err := exec.Command("/usr/bin/chromium", "--headless", "--no-sandbox", "--version").Output()
	if err != nil {
		return "(version unknown)"
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if strings.Contains(sc.Text(), "Chromium") {
			return strings.TrimSpace(strings.TrimPrefix(sc.Text(), "Chromium"))
		}
	}
	return "(version unknown)"
}
