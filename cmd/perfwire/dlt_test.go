package main

import (
	"bytes"
	"testing"
)

func TestDLTUsage(t *testing.T) {
	for _, args := range [][]string{
		{"dlt"},
		{"dlt", "--level", "loud", "x.dlt"},
		{"dlt", "--type", "other", "x.dlt"},
		{"dlt", "--from", "yesterday", "x.dlt"},
		{"dlt", "--grep", "(", "x.dlt"},
		{"dlt", "--follow", "localhost", "x.dlt"},
	} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2: %s", args, code, errb.String())
		}
	}
}
