package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The helpers the command's tests share.

// runOK runs perfwire with args and returns what it printed on stdout;
// the test fails, naming the arguments and quoting stderr, when it exits
// with another status than 0.
func runOK(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("perfwire %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	return out.String()
}

// writeTestFile writes b to dir/name and returns its path; the test
// fails when it cannot.
func writeTestFile(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	f := filepath.Join(dir, name)
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// readTestFile returns the bytes of file name; the test fails when it
// cannot read them.
func readTestFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
