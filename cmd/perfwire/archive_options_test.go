package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/internal/fleetgen"
)

// An archive whose .meta and volume are zstd-compressed reads as the
// plain one in every command that opens archives, its volume (past the
// reader's 1 MiB chunk and a spill threshold of one byte) decompressed
// into a temporary file that is gone once the command ends; the .meta,
// under one chunk, stays in memory.
func TestArchiveCompressedSpillsEqualsPlain(t *testing.T) {
	srcs, err := fleetgen.ReadSource(archiveData + "m3")
	if err != nil {
		t.Fatal(err)
	}
	metrics := fleetgen.Metrics(srcs, 30)
	start := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	dirs := map[fleetgen.Compression]string{}
	for _, c := range []fleetgen.Compression{fleetgen.Plain, fleetgen.Zstd} {
		dirs[c] = t.TempDir()
		base := filepath.Join(dirs[c], "host0007")
		if _, err := fleetgen.WriteHost(base, 7, metrics, start, 10*time.Second, 2000, c); err != nil {
			t.Fatal(err)
		}
	}
	vol := filepath.Join(dirs[fleetgen.Plain], "host0007.0")
	if st, err := os.Stat(vol); err != nil || st.Size() < 1<<20 {
		t.Fatalf("the plain volume: %v, %v; want more than 1 MiB", st, err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	saved := archiveOptions
	t.Cleanup(func() { archiveOptions = saved })
	spills := 0
	archiveOptions.SpillAbove = 1
	archiveOptions.Spill = func() (archive.SpillFile, error) {
		spills++
		return tempSpill()
	}
	for _, args := range [][]string{
		{"archive", "--json", "host0007"},
		{"archive", "-a", "host0007"},
		{"archive", "val", "-s", "50", "host0007", metrics[3].Names[0]},
	} {
		// Run in each archive's directory: pmval's header names the
		// archive as given.
		t.Chdir(dirs[fleetgen.Plain])
		spills = 0
		want := runOK(t, args...)
		if spills != 0 {
			t.Fatalf("%v: the plain archive spilled %d files", args, spills)
		}
		t.Chdir(dirs[fleetgen.Zstd])
		if got := runOK(t, args...); got != want {
			t.Errorf("%v of the compressed archive differs from the plain one's:\n%s", args, firstDiff(got, want))
		}
		if spills != 1 {
			t.Errorf("%v: %d files spilled, want the volume", args, spills)
		}
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Errorf("%v left in the temporary directory: %v", args, left)
		}
	}
}
