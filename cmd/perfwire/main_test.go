package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestUsageExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{
		{nil, 2},
		{[]string{"-h"}, 0},
		{[]string{"no-such-command"}, 2},
	} {
		var out, errb bytes.Buffer
		if got := run(tc.args, &out, &errb); got != tc.want {
			t.Errorf("run(%q) = %d, want %d (stderr %q)", tc.args, got, tc.want, errb.String())
		}
		if tc.want != 0 || len(tc.args) > 0 {
			if !strings.Contains(errb.String(), "usage: perfwire") {
				t.Errorf("run(%q): no usage text in %q", tc.args, errb.String())
			}
		}
	}
}
