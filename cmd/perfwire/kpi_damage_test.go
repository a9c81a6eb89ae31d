package main

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// A capture whose storage header is damaged mid-file: every mode of
// perfwire kpi still exits 0 with what it could read, and says on stderr
// how many bytes it skipped, in how many places, and the first failure;
// the count is the damaged record's length, as the record boundaries in
// the intact capture give it, and --summary's skipped_bytes agrees.
func TestKPIReportsSkippedDamage(t *testing.T) {
	raw := readTestFile(t, kpiTestdata+"kpi-odd.dlt")
	var starts []int
	for i := 0; ; {
		j := bytes.Index(raw[i:], []byte("DLT\x01"))
		if j < 0 {
			break
		}
		starts = append(starts, i+j)
		i += j + 4
	}
	k := len(starts) / 2
	damaged := bytes.Clone(raw)
	copy(damaged[starts[k]:], "XXXX")
	want := starts[k+1] - starts[k]
	file := writeTestFile(t, t.TempDir(), "damaged.dlt", damaged)
	line := "perfwire: " + file + ": skipped " + strconv.Itoa(want) + " damaged bytes in 1 places; the first: dlt: "
	for _, mode := range [][]string{{}, {"--json"}, {"--summary"}, {"top", "--final"}} {
		var out, errb bytes.Buffer
		args := append(append([]string{"kpi"}, mode...), file)
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		if !strings.Contains(errb.String(), line) {
			t.Errorf("%v: stderr %q, want a line starting %q", args, errb.String(), line)
		}
		if len(mode) == 1 && mode[0] == "--summary" {
			var s struct {
				SkippedBytes int `json:"skipped_bytes"`
			}
			if err := json.Unmarshal(out.Bytes(), &s); err != nil || s.SkippedBytes != want {
				t.Errorf("--summary: skipped_bytes %d (%v), want %d", s.SkippedBytes, err, want)
			}
		}
	}
	var out, errb bytes.Buffer
	if run([]string{"kpi", kpiTestdata + "kpi-odd.dlt"}, &out, &errb); errb.Len() != 0 {
		t.Errorf("an intact capture: stderr %q", errb.String())
	}
}
