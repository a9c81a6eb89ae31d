//go:build conformance

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfwire/perfwire/mmv/mmvfile"
)

// perfwire mmv serves PCP's QA file large-parfait as the real pmdammv
// does: the metrics pminfo lists for it (pmdammv leaves out one with item
// 1024 and one whose name clashes with an earlier leaf) are the metrics
// perfwire prints, each left-out one named on stderr with its rule; with
// --strict the file is refused.
func TestConformanceMMVLikePmdammv(t *testing.T) {
	src := readTestFile(t, "../../mmv/testdata/qa/large-parfait")
	path := filepath.Join(mmvfile.Dir(), "perfwire-qa-large-parfait")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatalf("writing into pmdammv's directory (scripts/pcp-up.sh sets it up): %v", err)
	}
	defer os.Remove(path)
	// The file sets the no-prefix flag: its names are mmv.spacex.*.
	var served []string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		out, _ := exec.Command("pminfo", "-h", "127.0.0.1", "mmv").Output()
		served = served[:0]
		for _, n := range strings.Fields(string(out)) {
			if strings.HasPrefix(n, "mmv.spacex.") {
				served = append(served, n)
			}
		}
		if len(served) > 0 {
			break
		}
	}
	if len(served) == 0 {
		t.Fatal("pmdammv did not serve the file within 20 s")
	}
	slices.Sort(served)

	var out, errb bytes.Buffer
	if code := run([]string{"mmv", path}, &out, &errb); code != 0 {
		t.Fatalf("perfwire mmv: exit %d: %s", code, errb.String())
	}
	var f struct{ Metrics []struct{ Name string } }
	if err := json.Unmarshal(out.Bytes(), &f); err != nil {
		t.Fatal(err)
	}
	var ours []string
	for _, m := range f.Metrics {
		ours = append(ours, m.Name)
	}
	slices.Sort(ours)
	if !slices.Equal(ours, served) {
		t.Errorf("perfwire mmv lists %d metrics, pmdammv serves %d", len(ours), len(served))
	}
	for _, want := range []string{
		`"spacex.packages.request.circuitbreaker.fallback" left out, as pmdammv leaves it out (--strict refuses the file): mmv: metrics[253].item: value out of range (value 1024, limit 1023)`,
		`metric spacex.indexer.entity_changes.doc.content: name is a leaf where an earlier name needs an inner node`,
	} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr %q lacks %q", errb.String(), want)
		}
	}
	errb.Reset()
	if code := run([]string{"mmv", "--strict", path}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "metrics[253].item") {
		t.Errorf("--strict: exit %d, %q", code, errb.String())
	}

	// --dump prints every entry, the refused metric and its value too, as
	// the real mmvdump does (both run in the file's directory).
	dir, base := filepath.Split(path)
	mmvdump := exec.Command("/var/lib/pcp/pmdas/mmv/mmvdump", base)
	mmvdump.Dir = dir
	want, err := mmvdump.Output()
	if err != nil {
		t.Fatalf("mmvdump: %v", err)
	}
	out.Reset()
	errb.Reset()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	code := run([]string{"mmv", "--dump", base}, &out, &errb)
	os.Chdir(wd)
	if code != 0 || !bytes.Equal(out.Bytes(), want) || errb.Len() != 0 {
		t.Errorf("--dump: exit %d, %d bytes, mmvdump %d bytes, stderr %q", code, out.Len(), len(want), errb.String())
	}
}
