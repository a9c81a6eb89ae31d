package mmvfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/pcp"
)

// On a full file system, CreatePath returns the error instead of dying
// with SIGBUS in the mapping (as it did, and as libpcp_mmv does), leaves
// the previous file at the path as it was, and leaves no temporary file.
// The file system is a 64 KiB tmpfs: the test needs root, which make test
// and CI have.
func TestCreatePathFullDisk(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Fatalf("mounting a 64 KiB tmpfs (needs root, as make test runs): %v", err)
	}
	defer syscall.Unmount(dir, 0)
	path := filepath.Join(dir, "app")

	small := &mmv.Registry{Cluster: 7, Metrics: []mmv.MetricDef{{Name: "hits", Item: 1, Type: mmv.TypeU64, Sem: pcp.SemCounter}}}
	w, err := CreatePath(path, small)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	// About 1.1 MB: 12,000 instances, each with an instance entry and a value.
	big := &mmv.Registry{Cluster: 7, Gen: 1, Indoms: []mmv.IndomDef{{Serial: 1}},
		Metrics: []mmv.MetricDef{{Name: "hits", Item: 1, Type: mmv.TypeU64, Sem: pcp.SemCounter, Indom: 1}}}
	for i := range 12000 {
		big.Indoms[0].Instances = append(big.Indoms[0].Instances, mmv.InstanceDef{ID: int32(i), Name: "i" + strconv.Itoa(i)})
	}
	if plan, err := big.Plan(); err != nil || plan.Size() < 1<<20 {
		t.Fatalf("the big layout: %v", err)
	}
	_, err = CreatePath(path, big)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("CreatePath on a full disk: %v, want ENOSPC", err)
	}
	after, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(after, before) {
		t.Errorf("the previous file changed (%v)", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}
