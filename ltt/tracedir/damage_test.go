package tracedir_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/ltt"
	"github.com/perfwire/perfwire/ltt/tracedir"
)

// copyTrace copies the smp_example trace into a new directory.
func copyTrace(t *testing.T) string {
	t.Helper()
	src, dst := "../testdata/smp_example", t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// Three sparse 256 MB cpu files (1.5 MB on disk) cost memory by the
// block, not by the file: opening the trace and merging until the first
// bad block allocates a few blocks' worth, never a whole file.
func TestOpenSparseFiles(t *testing.T) {
	dir := copyTrace(t)
	for i := range 3 {
		name := filepath.Join(dir, "cpu", strconv.Itoa(i))
		if i == 2 {
			b, _ := os.ReadFile(filepath.Join(dir, "cpu", "0"))
			os.WriteFile(name, b, 0o644)
		}
		if err := os.Truncate(name, 256<<20); err != nil {
			t.Fatal(err)
		}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tr, err := tracedir.Open(os.DirFS(dir), tracedir.Options{MicroTime: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	n := 0
	for _, ev := range tr.Merge() {
		if ev != nil {
			n++
		}
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Errorf("three 256 MB sparse cpu files: %d bytes allocated", got)
	}
	if n == 0 || tr.MergeErr() == nil || !strings.Contains(tr.MergeErr().Error(), "cpu/") {
		t.Errorf("%d events, merge error %v (want one naming its cpu file)", n, tr.MergeErr())
	}
}

// A cpu file cut short is reported with what was lost; the other CPU's
// events are all read.
func TestOpenTruncatedCPU(t *testing.T) {
	dir := copyTrace(t)
	if err := os.Truncate(filepath.Join(dir, "cpu", "1"), 100000); err != nil {
		t.Fatal(err)
	}
	tr, err := tracedir.Open(os.DirFS(dir), tracedir.Options{MicroTime: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if len(tr.Damage) != 1 {
		t.Fatalf("damage %v", tr.Damage)
	}
	d := tr.Damage[0]
	if d.File != "cpu/1" || d.Size != 100000 || d.Blocks() != 0 || d.Lost() != 100000 {
		t.Errorf("damage %+v", d)
	}
	want := "cpu/1: 100000 bytes is not a whole number of 1000000-byte blocks: 0 blocks read, the last 100000 bytes"
	if !strings.HasPrefix(d.String(), want) {
		t.Errorf("%q\nwant it to start %q", d.String(), want)
	}
	whole, err := tracedir.Open(os.DirFS("../testdata/smp_example"), tracedir.Options{MicroTime: true})
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	if len(whole.Damage) != 0 {
		t.Errorf("the intact trace reports damage: %v", whole.Damage)
	}
}

// Damage in a file is reported with the file's name, the value and the
// limit where there is one.
func TestOpenErrorsNameTheFile(t *testing.T) {
	edit := func(t *testing.T, rel string, f func([]byte) []byte) string {
		dir := copyTrace(t)
		p := filepath.Join(dir, rel)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f(b), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	cases := []struct {
		name string
		dir  string
		want []string
	}{
		{"system.xml cut short", edit(t, "info/system.xml", func(b []byte) []byte { return b[:100] }), []string{"info/system.xml: "}},
		{"block size too small", edit(t, "info/system.xml", func(b []byte) []byte {
			return []byte(strings.Replace(string(b), `ltt_block_size="1000000"`, `ltt_block_size="5"`, 1))
		}), []string{"info/system.xml: ltt: block size: bad block size (value 5, limit "}},
		{"eventdefs damaged", edit(t, "eventdefs/core.xml", func(b []byte) []byte { return append([]byte("<event"), b...) }), []string{"eventdefs/core.xml: "}},
	}
	for _, c := range cases {
		_, err := tracedir.Open(os.DirFS(c.dir), tracedir.Options{MicroTime: true})
		if err == nil {
			t.Errorf("%s: opened", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not say %q", c.name, err, w)
			}
		}
	}
	// A block whose block_start is damaged, in the merge.
	dir := edit(t, "cpu/0", func(b []byte) []byte { b[0] ^= 0xff; return b })
	tr, err := tracedir.Open(os.DirFS(dir), tracedir.Options{MicroTime: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	for range tr.Merge() {
	}
	if err := tr.MergeErr(); err == nil || !strings.HasPrefix(err.Error(), "cpu/0: ltt: ") || !errors.Is(err, ltt.ErrBlockStart) {
		t.Errorf("merge error %v", err)
	}
}
