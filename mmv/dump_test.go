package mmv_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/mmv"
)

// realFiles lists the MMV files in testdata that have an mmvdump oracle.
func realFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/*/*.mmv")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	return files
}

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDumpMatchesMmvdump checks that every real file reads back with the
// same header, metrics, instances, help, values, strings and labels as
// PCP 6.0.3's mmvdump printed for it.
func TestDumpMatchesMmvdump(t *testing.T) {
	for _, name := range realFiles(t) {
		t.Run(name, func(t *testing.T) {
			b := readFile(t, name)
			want := string(readFile(t, strings.TrimSuffix(name, ".mmv")+".mmvdump.txt"))
			r, err := mmv.Parse(b, mmv.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := string(mmv.AppendDump(nil, &r, filepath.Base(name), 0))
			if got != want {
				t.Errorf("dump differs from mmvdump:\n%s", diff(want, got))
			}
		})
	}
}

// diff returns the first differing lines of two texts.
func diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + itoa(i+1) + ":\nwant " + a + "\ngot  " + b
		}
	}
	return ""
}

func itoa(i int) string { return strconv.Itoa(i) }
