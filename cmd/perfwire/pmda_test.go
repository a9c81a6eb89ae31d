package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestEditPMCDConf checks pmdaproc.sh's pmcd.conf rules: entries of the
// same name or domain replaced, blank lines dropped, entries sorted by
// domain, the [access] section kept after one blank line.
func TestEditPMCDConf(t *testing.T) {
	const conf = "# comment\nsample\t29\tpipe\tbinary\t/s -d 29\n\nsimple\t253\tpipe\tbinary\t/old -d 253\nother\t253\tdso\tx\t/y\n" +
		"pmcd\t2\tdso\tpmcd_init\t/p.so\n\n[access]\ndisallow \".*\" : store;\n\nallow \"local:*\" : all;\n"
	path := writeTestFile(t, t.TempDir(), "pmcd.conf", []byte(conf))
	if err := editPMCDConf(path, "simple", 253, "simple\t253\tpipe\tbinary\t\t/new pmda simple -d 253"); err != nil {
		t.Fatal(err)
	}
	want := "# comment\npmcd\t2\tdso\tpmcd_init\t/p.so\nsample\t29\tpipe\tbinary\t/s -d 29\nsimple\t253\tpipe\tbinary\t\t/new pmda simple -d 253\n\n" +
		"[access]\ndisallow \".*\" : store;\n\nallow \"local:*\" : all;\n"
	got, _ := os.ReadFile(path)
	if string(got) != want {
		t.Errorf("install:\n%s\nwant\n%s", got, want)
	}
	if err := editPMCDConf(path, "simple", -1, ""); err != nil {
		t.Fatal(err)
	}
	want = "# comment\npmcd\t2\tdso\tpmcd_init\t/p.so\nsample\t29\tpipe\tbinary\t/s -d 29\n\n[access]\ndisallow \".*\" : store;\n\nallow \"local:*\" : all;\n"
	if got, _ := os.ReadFile(path); string(got) != want {
		t.Errorf("remove:\n%s\nwant\n%s", got, want)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestPMDAUsage(t *testing.T) {
	for _, args := range [][]string{{"pmda"}, {"pmda", "nope"}, {"pmda", "install"}, {"pmda", "install", "nope"}} {
		if code := run(args, os.Stdout, devNull{}); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

type devNull struct{}

func (devNull) Write(p []byte) (int, error) { return len(p), nil }
