//go:build conformance

package main

import (
	"bufio"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// uptime is the machine's uptime in seconds: dlt-kpi's messages carry it
// as their DLT timestamp.
func uptime(t *testing.T) float64 {
	b := readTestFile(t, "/proc/uptime")
	s, err := strconv.ParseFloat(strings.Fields(string(b))[0], 64)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// kpi top --follow reads the running dlt-daemon (started by
// scripts/dlt-up.sh with dlt-kpi): after the messages the daemon keeps
// for new clients, it draws live frames, and a busy process shows on CPU.
func TestConformanceKPITopFollow(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "perfwire")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	busy := exec.Command("sh", "-c", "while :; do :; done")
	if err := busy.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { busy.Process.Kill(); busy.Wait() }()
	pid := strconv.Itoa(busy.Process.Pid)
	start := uptime(t)

	top := exec.Command(bin, "kpi", "top", "--follow", "localhost:3490", "--sort", "cpu")
	stdout, err := top.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := top.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { top.Process.Kill(); top.Wait() }()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		live := false
		for sc.Scan() {
			line := sc.Text()
			if rest, ok := strings.CutPrefix(line, "perfwire kpi top - localhost:3490 - ECU uptime "); ok {
				at, _ := strconv.ParseFloat(strings.Fields(rest)[0], 64)
				live = at >= start
				continue
			}
			if c := strings.Fields(line); live && len(c) >= 3 && c[0] == pid && c[2] != "-" && c[2] != "0" {
				found <- line
				return
			}
		}
		close(found)
	}()
	select {
	case row, ok := <-found:
		if !ok {
			t.Fatal("kpi top --follow ended without showing the busy loop")
		}
		t.Logf("busy loop: %s", row)
	case <-time.After(30 * time.Second):
		t.Fatalf("the busy loop (pid %s) did not show on CPU in a live frame within 30 s", pid)
	}
}
