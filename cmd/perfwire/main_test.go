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

// Every command prints its help on stdout and exits 0 for --help (and
// -h, but for pm, whose -h names the host as pminfo's does, and archive,
// whose -h asks for help texts as pmdumplog's does).
func TestHelpEverywhere(t *testing.T) {
	for _, c := range commands {
		for _, flag := range []string{"--help", "-h"} {
			if (c.name == "pm" || c.name == "archive") && flag == "-h" {
				continue
			}
			var out, errb bytes.Buffer
			code := run([]string{c.name, flag}, &out, &errb)
			if code != 0 || !strings.Contains(out.String(), "usage: perfwire "+c.name) || errb.Len() != 0 {
				t.Errorf("perfwire %s %s: exit %d, stdout %q, stderr %q", c.name, flag, code, out.String(), errb.String())
			}
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"pm", "-h"}, &out, &errb); code != 2 {
		t.Errorf("pm -h without a host: exit %d, want 2 (a usage error)", code)
	}
	if code := run([]string{"archive", "-h"}, &out, &errb); code != 2 {
		t.Errorf("archive -h without an archive: exit %d, want 2 (a usage error)", code)
	}
}
