package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestLabelsMergeQA561 runs "perfwire labels --merge" on the qa/561
// inputs and compares with libpcp's results.
func TestLabelsMergeQA561(t *testing.T) {
	in := readTestFile(t, "../../labels/testdata/qa/561-mergelabels.input.tsv")
	want := readTestFile(t, "../../labels/testdata/qa/561-mergelabels.expected.txt")
	wantLines := strings.Split(strings.TrimSpace(string(want)), "\n")
	for i, line := range strings.Split(strings.TrimSpace(string(in)), "\n") {
		var out, errb bytes.Buffer
		args := append([]string{"labels", "--merge"}, strings.Split(line, "\t")...)
		if rc := run(args, &out, &errb); rc != 0 {
			t.Fatalf("case %d: exit %d: %s", i, rc, errb.String())
		}
		if got := strings.TrimSpace(out.String()); got != wantLines[i] {
			t.Errorf("case %d: %s, want %s", i, got, wantLines[i])
		}
	}
}

// TestLabelsIndex checks the printed index against the [6.0.3]
// single-parse example of the spec (docs/pcp-labels.md §4.2).
func TestLabelsIndex(t *testing.T) {
	var out, errb bytes.Buffer
	if rc := run([]string{"labels", "--keep-order", `{ "b" : "x y" ,  "a" : 1 }`}, &out, &errb); rc != 0 {
		t.Fatalf("exit %d: %s", rc, errb.String())
	}
	want := "{\"b\":\"x y\",\"a\":1}\n  [0] name(12,1):value(15,1)[none] a\n  [1] name(2,1):value(5,5)[none] b\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

func TestLabelsErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		rc   int
		msg  string
	}{
		{[]string{"labels", `{"a":1`}, 1, "argument 1: labels: object: truncated at offset 6\n"},
		{[]string{"labels", "--merge", `{}`, `{"bad-key":1}`}, 1, "argument 2: labels: name: invalid label name at offset 2\n"},
		{[]string{"labels"}, 2, "no label sets given"},
		{[]string{"labels", "--nope"}, 2, "not defined"},
	} {
		var out, errb bytes.Buffer
		rc := run(tc.args, &out, &errb)
		if rc != tc.rc || !strings.Contains(errb.String(), tc.msg) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, rc, errb.String(), tc.rc, tc.msg)
		}
		if rc == 1 && strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("%q: error is not one line: %q", tc.args, errb.String())
		}
	}
}
