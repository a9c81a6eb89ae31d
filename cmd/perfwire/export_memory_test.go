package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfwire/perfwire/internal/fleetgen"
)

// childEnv, when set, makes the test binary run perfwire with its
// arguments instead of the tests: a child process whose peak RSS is the
// command's alone.
const childEnv = "PERFWIRE_TEST_RUN_MAIN"

// peakEnv names the file a child writes its peak RSS to, in KiB.
const peakEnv = "PERFWIRE_TEST_PEAK_RSS"

// writePeakRSS writes the child's VmHWM to the file peakEnv names. The
// kernel's VmHWM belongs to the address space the exec made, so it is the
// command's own; getrusage's ru_maxrss is not: exec carries into it the
// peak of the address space it replaced, which with Go's vfork-style
// spawn is the whole test binary's.
func writePeakRSS() {
	f := os.Getenv(peakEnv)
	if f == "" {
		return
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for line := range strings.SplitSeq(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			os.WriteFile(f, []byte(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB"))), 0o600)
			return
		}
	}
}

// runChild runs perfwire with args in a child process and returns its
// peak RSS in bytes (the child's VmHWM, see writePeakRSS).
func runChild(t *testing.T, args ...string) int64 {
	t.Helper()
	peakFile := filepath.Join(t.TempDir(), "peak")
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), childEnv+"=1", peakEnv+"="+peakFile)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("perfwire %v: %v\n%s", args, err, stderr.String())
	}
	b, err := os.ReadFile(peakFile)
	if err != nil {
		t.Fatalf("the child wrote no peak RSS: %v", err)
	}
	kib, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		t.Fatalf("the child's peak RSS %q: %v", b, err)
	}
	return kib << 10
}

// TestExportMemoryFlatInLength: exporting one archive of 4N days peaks
// at no more RSS than exporting one of N days, within the noise of the
// GC's pacing, and both well under 256 MiB. The archives are the fleet
// generator's (a real recording's series), 40 metrics at 10 s, so that a
// day is 345,600 rows: each day's rows fill a partition file of its own,
// and a writer kept per day, or any buffer kept per row, would add
// megabytes per day. Row groups of 1 MiB keep the live heap small, so
// that the GC comes near its steady heap goal within the first days.
func TestExportMemoryFlatInLength(t *testing.T) {
	srcs, err := fleetgen.ReadSource(archiveData + "m3")
	if err != nil {
		t.Fatal(err)
	}
	metrics := fleetgen.Metrics(srcs, 40)
	const rowGroup = 1 << 20
	dir := t.TempDir()
	start := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	peak := func(days int) int64 {
		base := filepath.Join(dir, "days"+strconv.Itoa(days))
		if _, err := fleetgen.WriteHost(base, 0, metrics, start, 10*time.Second, days*8640, fleetgen.Plain); err != nil {
			t.Fatal(err)
		}
		rss := runChild(t, "export", "--row-group-size", strconv.Itoa(rowGroup), "-o", filepath.Join(dir, "out"+strconv.Itoa(days)), base+".meta")
		os.RemoveAll(filepath.Join(dir, "out"+strconv.Itoa(days)))
		for _, suf := range []string{".meta", ".index", ".0"} {
			os.Remove(base + suf)
		}
		return rss
	}
	const n = 2
	short, long := peak(n), peak(4*n)
	t.Logf("peak RSS: %d days %.1f MiB, %d days %.1f MiB", n, float64(short)/(1<<20), 4*n, float64(long)/(1<<20))
	// The bound: what the shorter export peaks at, and 8 MiB for the
	// GC's pacing (its heap goal is twice the live heap, and the live heap
	// at each collection varies; more collections come nearer the top of
	// that range). A writer kept per finished day adds about 3 MiB a day
	// here, 18 MiB over the six more days.
	if long > short+8<<20 {
		t.Errorf("peak RSS grows with the input's length: %d days %d KiB, %d days %d KiB", n, short>>10, 4*n, long>>10)
	}
	if long > 256<<20 {
		t.Errorf("peak RSS %d KiB over 256 MiB", long>>10)
	}
}
