//go:build conformance

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// privatePmcd starts a pmcd of the test's own (its port, unix socket,
// pmcd.conf, namespace and PCP_VAR_DIR in dir, so it starts its PMDAs
// itself rather than through the shared pmcd's pmdaroot), leaving the
// shared pmcd's configuration untouched. It is killed at cleanup.
func privatePmcd(t *testing.T, dir string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	cmd := exec.Command("/usr/lib/pcp/bin/pmcd", "-f", "-A", "-U", "root", "-p", port,
		"-s", filepath.Join(dir, "pmcd.socket"), "-c", filepath.Join(dir, "pmcd.conf"),
		"-n", filepath.Join(dir, "pmns", "root"), "-l", filepath.Join(dir, "pmcd.log"), "-x", filepath.Join(dir, "pmcd.err"))
	cmd.Env = append(os.Environ(), "PCP_RUN_DIR="+dir, "PCP_TMP_DIR="+dir, "PCP_VAR_DIR="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatalf("pmcd: %v", err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return "127.0.0.1:" + port
}

// pmdaDltkpiSetup builds perfwire, installs the dltkpi PMDA into a
// private pmcd's configuration with "perfwire pmda install" (capturing
// the DLT messages it consumes) and waits until pmcd serves it.
func pmdaDltkpiSetup(t *testing.T) (host, capture, dir string) {
	dir = t.TempDir()
	bin := filepath.Join(dir, "perfwire")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	if err := os.MkdirAll(filepath.Join(dir, "pmns"), 0o755); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "pmcd.conf")
	if err := os.WriteFile(filepath.Join(dir, "pmns", "root"), []byte("root {\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(conf, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "pmda", "install", "--pmcd-conf", conf, "--pmns-dir", filepath.Join(dir, "pmns"),
		"--no-restart", "--exec", bin, "dltkpi").CombinedOutput(); err != nil {
		t.Fatalf("pmda install: %v\n%s", err, out)
	}
	capture = filepath.Join(dir, "consumed.dlt")
	b := readTestFile(t, conf)
	line := " pmda dltkpi -d 510"
	if !bytes.Contains(b, []byte(line)) {
		t.Fatalf("pmcd.conf after install has no %q:\n%s", line, b)
	}
	b = bytes.Replace(b, []byte(line), []byte(line+" --dlt localhost:3490 --capture "+capture+" -l "+filepath.Join(dir, "dltkpi.log")), 1)
	if err := os.WriteFile(conf, b, 0o644); err != nil {
		t.Fatal(err)
	}
	host = privatePmcd(t, dir)
	deadline := time.Now().Add(20 * time.Second)
	for {
		out, err := exec.Command("pminfo", "-h", host, "-f", "dltkpi.nprocs").CombinedOutput()
		if err == nil && regexp.MustCompile(`value [1-9]`).Match(out) {
			break
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "pmcd.log"))
			plog, _ := os.ReadFile(filepath.Join(dir, "dltkpi.log"))
			t.Fatalf("dltkpi.nprocs never had a value (is dlt-daemon with dlt-kpi up? bash scripts/dlt-up.sh): %v\n%s\npmcd.log:\n%s\ndltkpi.log:\n%s", err, out, log, plog)
		}
		time.Sleep(250 * time.Millisecond)
	}
	return host, capture, dir
}

// actRow is one ACT dataset as perfwire kpi --json prints it.
type actRow struct {
	PID, CPU, RSS, Ctx, IO int64
}

// The real dlt-daemon and dlt-kpi feed the PMDA, the private pmcd serves
// it: pminfo and pmval show its metrics, and every value a pmlogger
// archive recorded equals a dataset perfwire kpi --json decodes from the
// DLT messages the PMDA consumed.
func TestConformancePMDADltkpi(t *testing.T) {
	host, capture, dir := pmdaDltkpiSetup(t)

	out, err := exec.Command("pminfo", "-h", host, "-f", "dltkpi").CombinedOutput()
	if err != nil {
		t.Fatalf("pminfo -f dltkpi: %v\n%s", err, out)
	}
	for _, name := range []string{"dltkpi.proc.cpu", "dltkpi.proc.rss", "dltkpi.proc.ctxsw", "dltkpi.proc.io", "dltkpi.proc.cmd",
		"dltkpi.percpu.intr", "dltkpi.percpu.interrupts", "dltkpi.nprocs", "dltkpi.processes.started", "dltkpi.processes.stopped"} {
		if !bytes.Contains(out, []byte("\n"+name+"\n")) {
			t.Errorf("pminfo -f dltkpi lacks %s", name)
		}
	}
	// Instances are named as the proc PMDA names them: the pid in six
	// digits, a space, the command.
	if !regexp.MustCompile(`inst \[(\d+) or "0*(\d+) [^"]+"\] value`).Match(out) {
		t.Errorf("no process instance named \"PID command\" in pminfo -f dltkpi:\n%.2000s", out)
	}
	if !regexp.MustCompile(`inst \[\d+ or "cpu0"\] value \d+`).Match(out) {
		t.Errorf("no cpu0 instance of dltkpi.percpu.intr:\n%.2000s", out)
	}
	desc, err := exec.Command("pminfo", "-h", host, "-d", "dltkpi.proc.ctxsw", "dltkpi.proc.rss", "dltkpi.proc.cpu").CombinedOutput()
	if err != nil {
		t.Fatalf("pminfo -d: %v\n%s", err, desc)
	}
	for _, want := range []string{"Semantics: counter  Units: count", "Semantics: instant  Units: Kbyte", "Semantics: instant  Units: none"} {
		if !bytes.Contains(desc, []byte(want)) {
			t.Errorf("pminfo -d lacks %q:\n%s", want, desc)
		}
	}

	// pmval rates a counter: two samples a second apart give one line of
	// switches per second per process.
	pv, err := exec.Command("pmval", "-h", host, "-s", "2", "-t", "1", "dltkpi.processes.started").CombinedOutput()
	if err != nil {
		t.Fatalf("pmval: %v\n%s", err, pv)
	}
	if !bytes.Contains(pv, []byte("converting to rate")) || !regexp.MustCompile(`(?m)^\s+\d+\.\d+\s*$`).Match(pv) {
		t.Errorf("pmval of a counter shows no rate:\n%s", pv)
	}

	// A pmlogger archive over a few of dlt-kpi's intervals.
	cfg := filepath.Join(dir, "pmlogger.conf")
	if err := os.WriteFile(cfg, []byte("log mandatory on 1 sec {\n\tdltkpi.proc.cpu\n\tdltkpi.proc.rss\n\tdltkpi.proc.ctxsw\n\tdltkpi.proc.io\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(dir, "arch")
	if out, err := exec.Command("pmlogger", "-h", host, "-c", cfg, "-s", "6", "-l", filepath.Join(dir, "pmlogger.log"), archive).CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "pmlogger.log"))
		t.Fatalf("pmlogger: %v\n%s\n%s", err, out, log)
	}
	labels, err := exec.Command("pminfo", "-a", archive, "-l", "dltkpi.proc.cpu").CombinedOutput()
	if err != nil {
		t.Fatalf("pminfo -l: %v\n%s", err, labels)
	}
	dump, err := exec.Command("pmdumplog", "-a", archive, "dltkpi.proc.cpu", "dltkpi.proc.rss", "dltkpi.proc.ctxsw", "dltkpi.proc.io").CombinedOutput()
	if err != nil {
		t.Fatalf("pmdumplog: %v\n%s", err, dump)
	}

	// The capture is complete once the PMDA has stopped: pmcd closing its
	// pipe ends it.
	stopPMDA(t, dir)

	// The ECU label is the ECU id dlt-convert prints for the messages.
	conv, err := exec.Command("dlt-convert", "-a", capture).Output()
	if err != nil {
		t.Fatalf("dlt-convert -a: %v", err)
	}
	m := regexp.MustCompile(`(?m)^\d+ \S+ \S+\s+\d+ \d+ (\S+) PROC PROC `).FindSubmatch(conv)
	if m == nil {
		t.Fatalf("dlt-convert shows no PROC/PROC message in the capture:\n%.1000s", conv)
	}
	if want := fmt.Sprintf(`"ecu":%q`, m[1]); !strings.Contains(string(labels), want) {
		t.Errorf("archive labels lack %s:\n%s", want, labels)
	}

	kj, err := exec.Command(filepath.Join(dir, "perfwire"), "kpi", "--json", capture).Output()
	if err != nil {
		t.Fatalf("perfwire kpi --json: %v", err)
	}
	full := map[actRow]bool{}   // pid, cpu, rss, ctx, io
	values := map[actRow]bool{} // pid, rss, ctx, io (cpu 0: the pid left out of the latest ACT group)
	sc := bufio.NewScanner(bytes.NewReader(kj))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var msg struct {
			Kind     string
			Datasets []struct{ PID, CPU, RSS, Ctx, IO int64 }
		}
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			t.Fatalf("kpi --json line: %v\n%s", err, sc.Bytes())
		}
		if msg.Kind != "ACT" {
			continue
		}
		for _, d := range msg.Datasets {
			// The PMDA serves RSS in KB: pages of 4096 bytes.
			kb := d.RSS * 4096 / 1024
			full[actRow{d.PID, d.CPU, kb, d.Ctx, d.IO}] = true
			values[actRow{d.PID, 0, kb, d.Ctx, d.IO}] = true
		}
	}
	if len(full) == 0 {
		t.Fatal("perfwire kpi --json found no ACT dataset in the capture")
	}
	samples := parseDumplog(t, dump)
	if len(samples) < 3 {
		t.Fatalf("pmdumplog shows %d samples, want at least 3:\n%.2000s", len(samples), dump)
	}
	checked, busy := 0, 0
	for ts, byPID := range samples {
		for pid, v := range byPID {
			if len(v) != 4 {
				continue // a process without an ACT sample has no values
			}
			checked++
			r := actRow{pid, v[0], v[1], v[2], v[3]}
			if v[0] > 0 {
				busy++
				if !full[r] {
					t.Errorf("sample %s pid %d: cpu %d rss %d KB ctx %d io %d is in no ACT dataset of kpi --json", ts, pid, v[0], v[1], v[2], v[3])
				}
			} else if r.CPU = 0; !values[r] {
				t.Errorf("sample %s pid %d: rss %d KB ctx %d io %d is in no ACT dataset of kpi --json", ts, pid, v[1], v[2], v[3])
			}
		}
	}
	if busy == 0 {
		t.Errorf("no process on CPU in %d archived values", checked)
	}
	t.Logf("%d samples, %d process values checked against kpi --json (%d on CPU)", len(samples), checked, busy)
}

// stopPMDA kills the private pmcd's dltkpi PMDA by the pid pmcd's log
// gives it and waits until it is gone, so its capture is whole.
func stopPMDA(t *testing.T, dir string) {
	t.Helper()
	log := readTestFile(t, filepath.Join(dir, "pmcd.log"))
	m := regexp.MustCompile(`(?m)^dltkpi\s+510\s+(\d+)\s`).FindSubmatch(log)
	if m == nil {
		t.Fatalf("pmcd.log names no dltkpi agent:\n%s", log)
	}
	pid, _ := strconv.Atoi(string(m[1]))
	p, err := os.FindProcess(pid)
	if err != nil {
		t.Fatal(err)
	}
	p.Signal(os.Interrupt)
	for range 100 {
		// Gone, or a zombie pmcd has not reaped yet.
		st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return
		}
		if i := bytes.LastIndexByte(st, ')'); i > 0 && bytes.HasPrefix(st[i+1:], []byte(" Z")) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the dltkpi PMDA (pid %d) did not stop", pid)
}

// parseDumplog reads pmdumplog's value lines: per timestamp, per pid,
// the four metrics in the order they were asked for (cpu, rss, ctxsw, io).
func parseDumplog(t *testing.T, dump []byte) map[string]map[int64][]int64 {
	t.Helper()
	stamp := regexp.MustCompile(`^(\d\d:\d\d:\d\d\.\d+)\s+\d+ metrics?$`)
	metric := regexp.MustCompile(`^\s+510\.0\.(\d+) \(dltkpi\.proc\.\w+\):`)
	value := regexp.MustCompile(`^\s+inst \[(\d+) or "[^"]*"\] value (\d+)$`)
	order := map[string]int{"0": 0, "1": 1, "2": 2, "3": 3}
	out := map[string]map[int64][]int64{}
	var ts string
	col := -1
	for l := range strings.SplitSeq(string(dump), "\n") {
		if m := stamp.FindStringSubmatch(l); m != nil {
			ts, col = m[1], -1
			out[ts] = map[int64][]int64{}
			continue
		}
		if m := metric.FindStringSubmatch(l); m != nil && ts != "" {
			col = order[m[1]]
			continue
		}
		if m := value.FindStringSubmatch(l); m != nil && ts != "" && col >= 0 {
			pid, _ := strconv.ParseInt(m[1], 10, 64)
			v, _ := strconv.ParseInt(m[2], 10, 64)
			row := out[ts][pid]
			if len(row) != col {
				continue // a metric without a value for this pid before it
			}
			out[ts][pid] = append(row, v)
		}
	}
	for ts, rows := range out {
		if len(rows) == 0 {
			delete(out, ts)
		}
	}
	return out
}
