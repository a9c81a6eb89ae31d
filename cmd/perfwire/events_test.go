package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestEventsMatchPminfo decodes the four event arrays of conv05's first
// RESULT and checks each one's record count and first and last
// timestamps against what pminfo printed for the same values.
func TestEventsMatchPminfo(t *testing.T) {
	oracle := readTestFile(t, captureDir+"conv05.out.txt")
	files, _ := filepath.Glob("../../wasm/testdata/conv05.pdu0.*EVENT.bin")
	if len(files) != 4 {
		t.Fatalf("%d event arrays", len(files))
	}
	out := runOK(t, append([]string{"events"}, files...)...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(files) {
		t.Fatalf("%d lines for %d files", len(lines), len(files))
	}
	for i, line := range lines {
		var a struct {
			HighRes bool `json:"highres"`
			Records []struct{ Sec, Nsec int64 }
		}
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatal(err)
		}
		layout := "15:04:05.000"
		if a.HighRes {
			layout = "15:04:05.000000000"
		}
		stamp := func(k int) string { return time.Unix(a.Records[k].Sec, a.Records[k].Nsec).UTC().Format(layout) }
		var want string
		switch n := len(a.Records); n {
		case 0:
			want = "[0 event records]"
		case 1:
			want = "[1 event record timestamp " + stamp(0) + "]"
		default:
			want = "[" + strconv.Itoa(n) + " event records timestamps " + stamp(0) + "..." + stamp(n-1) + "]"
		}
		if !strings.Contains(string(oracle), "] value "+want+"\n") || a.HighRes != strings.Contains(files[i], "HIGHRES_EVENT") {
			t.Errorf("%s: %s (highres %v) not in pminfo's output", filepath.Base(files[i]), want, a.HighRes)
		}
	}
}

// TestEventsErrors: a cut array is exit 1 naming the file and offset;
// no file is a usage error.
func TestEventsErrors(t *testing.T) {
	b := readTestFile(t, "../../wasm/testdata/conv05.pdu0.HIGHRES_RESULT.29.0.136.inst1.EVENT.bin")
	cut := writeTestFile(t, t.TempDir(), "cut.bin", b[:len(b)-4])
	var out, errb bytes.Buffer
	if code := run([]string{"events", cut}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "cut.bin: eventrec: ") || !strings.Contains(errb.String(), "offset") {
		t.Errorf("cut array: exit %d, %q", code, errb.String())
	}
	if code := run([]string{"events"}, &out, &errb); code != 2 {
		t.Errorf("no file: exit %d", code)
	}
}
