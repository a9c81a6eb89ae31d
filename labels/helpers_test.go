package labels

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readLines returns the non-header lines of a testdata file.
func readLines(t testing.TB, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, l)
	}
	return out
}

// readFile returns a testdata file's bytes.
func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// mustParse parses text with o or fails the test.
func mustParse(t testing.TB, text string, o Options) *Set {
	t.Helper()
	s := new(Set)
	if err := Parse(s, []byte(text), o); err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	return s
}
