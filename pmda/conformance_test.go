//go:build conformance

package pmda_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The conformance test replaces PCP's C simple PMDA in the real pmcd by
// the Go one (perfwire pmda install simple), runs the same PCP tools
// against both and compares what they print, values that are times
// masked. It holds /tmp/perfwire-pmcd.lock while pmcd's configuration is
// changed and puts the C PMDA back in a Cleanup, even on failure.

const (
	pmcdConf = "/etc/pcp/pmcd/pmcd.conf"
	pmnsDir  = "/var/lib/pcp/pmns"
)

func lockPMCD(t *testing.T) {
	f, err := os.OpenFile("/tmp/perfwire-pmcd.lock", os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
}

// buildPerfwire builds the CLI where pmcd's PMDA user can run it.
func buildPerfwire(t *testing.T) string {
	dir, err := os.MkdirTemp("/tmp", "perfwire-pmda-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "perfwire")
	out, err := exec.Command("go", "build", "-o", bin, "../cmd/perfwire").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// saveConfig keeps pmcd.conf and the PMNS files the install changes and
// restores them (removing the namespace files named in remove), with a SIGHUP, when the test ends; then it checks that the
// C simple PMDA answers again.
func saveConfig(t *testing.T, remove ...string) {
	files := []string{pmcdConf, filepath.Join(pmnsDir, "root"), filepath.Join(pmnsDir, "simple")}
	saved := make([][]byte, len(files))
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		saved[i] = b
	}
	t.Cleanup(func() {
		for _, f := range remove {
			os.Remove(filepath.Join(pmnsDir, f))
		}
		for i, f := range files {
			tmp := f + ".perfwire-restore"
			if err := os.WriteFile(tmp, saved[i], 0o644); err != nil {
				t.Error(err)
				continue
			}
			if err := os.Rename(tmp, f); err != nil {
				t.Error(err)
			}
		}
		sighup(t)
		out := run(t, "pminfo", "-f", "simple.numfetch")
		if !strings.Contains(out, "value") {
			t.Errorf("after restoring the C simple PMDA, pminfo prints\n%s", out)
		}
		ps, _ := exec.Command("pgrep", "-f", "pmdas/simple/pmdasimple").Output()
		if len(strings.TrimSpace(string(ps))) == 0 {
			t.Error("the C simple PMDA is not running after the restore")
		}
	})
}

func sighup(t *testing.T) {
	before := sighups(t)
	if out, err := exec.Command("/usr/lib/pcp/bin/pmsignal", "-a", "-s", "HUP", "pmcd").CombinedOutput(); err != nil {
		t.Fatalf("pmsignal: %v\n%s", err, out)
	}
	for range 100 {
		time.Sleep(100 * time.Millisecond)
		if sighups(t) > before {
			time.Sleep(time.Second)
			return
		}
	}
	t.Fatal("pmcd did not count the SIGHUP")
}

func sighups(t *testing.T) int {
	out, err := exec.Command("pmprobe", "-v", "pmcd.sighups").Output()
	if err != nil {
		t.Fatalf("pmprobe pmcd.sighups: %v", err)
	}
	f := strings.Fields(string(out))
	n, _ := strconv.Atoi(f[len(f)-1])
	return n
}

// run runs a PCP tool and returns what it printed; a failure to run is
// fatal, a non-zero exit is part of the output.
func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	out, err := cmd.CombinedOutput()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("%s: %v", name, err)
	}
	if err != nil {
		out = append(out, "exit: "+err.Error()+"\n"...)
	}
	return string(out)
}

var (
	clock      = regexp.MustCompile(`\d\d:\d\d:\d\d\.\d+`)
	valueLine  = regexp.MustCompile(`^(\s*(inst \[[^]]*\] )?value )\S+$`)
	timeMetric = map[string]bool{"simple.time.user": true, "simple.time.sys": true, "simple.now": true}
)

// maskTimes replaces the values of the metrics that are times in pminfo
// output, and clock times anywhere.
func maskTimes(s string) string {
	var out []string
	cur := ""
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "simple.") {
			cur = strings.Fields(l)[0]
		}
		if timeMetric[cur] {
			l = valueLine.ReplaceAllString(l, "${1}TIME")
		}
		out = append(out, clock.ReplaceAllString(l, "HH:MM:SS"))
	}
	return strings.Join(out, "\n")
}

// maskProbe masks pmprobe -v's values of time metrics.
func maskProbe(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if f := strings.Fields(l); len(f) > 2 && timeMetric[f[0]] {
			l = f[0] + " " + f[1] + " TIME"
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// scenario resets the PMDA's counters through pmstore, then runs the tools
// whose output the two PMDAs must share.
func scenario(t *testing.T) map[string]string {
	for _, s := range [][]string{{"-i", "red", "simple.color", "0"}, {"-i", "green", "simple.color", "100"}, {"-i", "blue", "simple.color", "200"}, {"simple.numfetch", "0"}} {
		if out := run(t, "pmstore", s...); strings.Contains(out, "exit") {
			t.Fatalf("pmstore %v: %s", s, out)
		}
	}
	return map[string]string{
		"pminfo -dfmtTl":    maskTimes(run(t, "pminfo", "-dfmtTl", "simple")),
		"pmval -s 2":        maskTimes(run(t, "pmval", "-s", "2", "-t", "0.2", "simple.numfetch")),
		"pmstore 42":        run(t, "pmstore", "simple.numfetch", "42"),
		"pmstore read-only": run(t, "pmstore", "simple.time.user", "1"),
		"pmstore color 300": run(t, "pmstore", "-i", "red", "simple.color", "300"),
		"pmprobe -v":        maskProbe(run(t, "pmprobe", "-v", "simple")),
		"pminfo -f after":   maskTimes(run(t, "pminfo", "-f", "simple.numfetch", "simple.color")),
		"pmprobe -I":        run(t, "pmprobe", "-I", "simple.now", "simple.color"),
	}
}

func TestConformanceSimple(t *testing.T) {
	lockPMCD(t)
	bin := buildPerfwire(t)
	saveConfig(t)

	want := scenario(t)
	out, err := exec.Command(bin, "pmda", "install", "--exec", bin, "simple").CombinedOutput()
	if err != nil {
		t.Fatalf("perfwire pmda install simple: %v\n%s", err, out)
	}
	ps, _ := exec.Command("pgrep", "-f", bin+" pmda simple").Output()
	if len(strings.TrimSpace(string(ps))) == 0 {
		t.Fatal("pmcd is not running the Go simple PMDA after the install")
	}
	got := scenario(t)
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: the Go PMDA prints\n%s\nthe C PMDA\n%s", k, got[k], w)
		}
	}
	if !strings.Contains(got["pmstore 42"], "new value=42") {
		t.Errorf("pmstore 42 printed %q", got["pmstore 42"])
	}
	checkArchive(t)
}

// checkArchive records the Go PMDA with pmlogger and reads the archive back
// with pmdumplog: each sample's colours are one more than the last (every
// fetch increments each instance) and numfetch grows.
func checkArchive(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	os.WriteFile(cfg, []byte("log mandatory on 250 msec {\n\tsimple.numfetch\n\tsimple.color\n}\n"), 0o644)
	base := filepath.Join(dir, "arch")
	if out, err := exec.Command("pmlogger", "-c", cfg, "-s", "6", "-l", filepath.Join(dir, "log"), base).CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		t.Fatalf("pmlogger: %v\n%s\n%s", err, out, log)
	}
	dump := run(t, "pmdumplog", "-a", base)
	inst := regexp.MustCompile(`inst \[(\d) or "\w+"\] value (\d+)`)
	num := regexp.MustCompile(`253\.0\.0 \(simple\.numfetch\): value (\d+)`)
	var reds, counts []int
	for _, l := range strings.Split(dump, "\n") {
		if m := num.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			counts = append(counts, n)
		}
		if m := inst.FindStringSubmatch(l); m != nil && m[1] == "0" {
			n, _ := strconv.Atoi(m[2])
			reds = append(reds, n)
		}
	}
	if len(counts) < 4 || len(reds) < 4 {
		t.Fatalf("pmdumplog shows %d numfetch and %d red values:\n%s", len(counts), len(reds), dump)
	}
	for i := 1; i < len(counts); i++ {
		if counts[i] <= counts[i-1] {
			t.Errorf("numfetch does not grow: %v", counts)
		}
		if reds[i] <= reds[i-1] && reds[i] != 0 {
			t.Errorf("red does not grow: %v", reds)
		}
	}
}
