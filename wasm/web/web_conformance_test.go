//go:build conformance

// Package web holds the end-to-end test of the static viewer; the viewer
// itself is the JavaScript and HTML under src/.
package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestConformanceWebViewer builds the viewer, serves it on loopback, opens
// the shared dlt-kpi capture kpi-odd.dlt in headless Chromium through the
// file picker, and checks that the page's process table lists the same
// processes and commands as `perfwire kpi` on that file, that the chart
// and the IRQ table have content, and that no script failed. The
// screenshot lands in the test's artifact directory (go test -artifacts).
func TestConformanceWebViewer(t *testing.T) {
	chromium := "/usr/bin/chromium"
	if _, err := os.Stat(chromium); err != nil {
		t.Fatal("Debian's chromium is required (scripts/web-deps.sh installs it): ", err)
	}
	if _, err := os.Stat("node_modules/playwright-core"); err != nil {
		t.Fatal("npm packages missing (scripts/web-deps.sh installs them): ", err)
	}
	root, _ := filepath.Abs("../..")
	if out, err := exec.Command("bash", filepath.Join(root, "scripts/web-build.sh")).CombinedOutput(); err != nil {
		t.Fatalf("web-build: %v\n%s", err, out)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir("dist")))
	defer srv.Close()

	capture, _ := filepath.Abs("../testdata/kpi-odd.dlt")
	shot := filepath.Join(t.ArtifactDir(), "viewer-kpi-odd.png")
	dropped, _ := filepath.Abs("../testdata/excerpt-irq-strtok-race.dlt")
	cmd := exec.Command("node", "e2e.mjs", srv.URL+"/", capture, shot, dropped)
	cmd.Env = append(os.Environ(), "CHROMIUM="+chromium)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("e2e: %v\n%s", err, stderr.Bytes())
	}
	var page struct {
		Status    string
		Statuses  []string
		Progress  float64
		Processes []struct {
			PID      int32
			Cmd, CPU string
		}
		IRQs       []string
		Legend     []string
		ChartInk   int
		Errors     []string
		DropStatus string
		DropRows   int
	}
	if err := json.Unmarshal(out, &page); err != nil {
		t.Fatalf("e2e output %q: %v", out, err)
	}
	t.Logf("screenshot: %s; %s; %d processes, %d IRQ rows", shot, page.Status, len(page.Processes), len(page.IRQs))

	want := cliTable(t, root, capture)
	if len(page.Processes) != len(want) {
		t.Errorf("viewer shows %d processes, perfwire kpi %d", len(page.Processes), len(want))
	}
	for i, p := range page.Processes {
		if i >= len(want) {
			break
		}
		w := want[i]
		if p.PID != w.pid {
			t.Errorf("row %d: pid %d, perfwire kpi %d", i, p.PID, w.pid)
			continue
		}
		// The CLI quotes like strconv.Quote; the page escapes control
		// bytes the same way but leaves quotes and backslashes alone.
		if !strings.ContainsAny(w.cmd, `\"`) && p.Cmd != w.cmd {
			t.Errorf("pid %d: command %q, perfwire kpi %q", p.PID, p.Cmd, w.cmd)
		}
		if p.CPU != w.cpu {
			t.Errorf("pid %d: CPU %s, perfwire kpi %s", p.PID, p.CPU, w.cpu)
		}
	}
	if page.Progress != 1 || !strings.HasPrefix(page.Status, "done") {
		t.Errorf("progress %v, status %q", page.Progress, page.Status)
	}
	// The worker reports progress step by step before it is done.
	decoding := 0
	for _, s := range page.Statuses {
		if strings.HasPrefix(s, "decoding") {
			decoding++
		}
	}
	if decoding < 3 {
		t.Errorf("only %d progress updates: %q", decoding, page.Statuses)
	}
	if len(page.IRQs) == 0 || len(page.Legend) == 0 || page.ChartInk < 1000 {
		t.Errorf("empty IRQ table (%d), legend (%d) or chart (%d pixels)", len(page.IRQs), len(page.Legend), page.ChartInk)
	}
	// The dropped excerpt: dlt-convert lists 34 PROC/PROC messages in it.
	if page.DropStatus != "done: 34 KPI messages" || page.DropRows != len(cliTable(t, root, dropped)) {
		t.Errorf("after the drop: status %q, %d rows", page.DropStatus, page.DropRows)
	}
	if len(page.Errors) > 0 {
		t.Errorf("page errors: %v", page.Errors)
	}
}

type cliRow struct {
	pid      int32
	cpu, cmd string
}

// cliTable runs `perfwire kpi` on the capture and parses its table:
// PID PPID CPU‰ RSS_KiB CTX/int IO/int FLAGS COMMAND, one row per process.
func cliTable(t *testing.T, root, capture string) []cliRow {
	t.Helper()
	cmd := exec.Command("go", "run", "./cmd/perfwire", "kpi", capture)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("perfwire kpi: %v", err)
	}
	var rows []cliRow
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		if len(f) < 7 || strings.HasPrefix(line, "#") || f[0] == "PID" {
			continue
		}
		pid, err := strconv.Atoi(f[0])
		if err != nil {
			t.Fatalf("perfwire kpi line %q", line)
		}
		// The command follows FLAGS, which is left-aligned in 5 columns
		// and then one space; the command may itself start with spaces.
		rest := line
		for range 6 {
			rest = strings.TrimLeft(rest, " ")
			rest = rest[strings.IndexByte(rest, ' '):]
		}
		rest = strings.TrimLeft(rest, " ")
		skip := max(len(f[6]), 5) + 1
		if len(rest) < skip {
			rest = ""
		} else {
			rest = rest[skip:]
		}
		rows = append(rows, cliRow{pid: int32(pid), cpu: f[2], cmd: rest})
	}
	if len(rows) == 0 {
		t.Fatalf("perfwire kpi printed no process:\n%s", out)
	}
	return rows
}
