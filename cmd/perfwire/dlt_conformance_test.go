//go:build conformance

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// dltConvertLines runs the real dlt-convert -a (in this process's time
// zone, as perfwire dlt formats local times).
func dltConvertLines(t *testing.T, file string) []string {
	t.Helper()
	out, err := exec.Command("dlt-convert", "-a", file).Output()
	if err != nil {
		t.Fatalf("dlt-convert (DLT 2.18.8, installed by scripts/dlt-up.sh): %v", err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

// perfwire dlt prints byte for byte what dlt-convert -a prints, on every
// capture; its filters keep exactly the tool's lines that match them;
// --json has one object per message with the same headers and payload.
func TestConformanceDLT(t *testing.T) {
	files, _ := filepath.Glob("../../dlt/testdata/*.dlt")
	if len(files) < 3 {
		t.Fatalf("captures: %v", files)
	}
	for _, f := range files {
		want := dltConvertLines(t, f)
		var out, errb bytes.Buffer
		if code := run([]string{"dlt", f}, &out, &errb); code != 0 {
			t.Fatalf("perfwire dlt %s: exit %d: %s", f, code, errb.String())
		}
		if got := strings.Join(want, "\n") + "\n"; out.String() != got {
			t.Errorf("%s: perfwire dlt differs from dlt-convert -a", f)
		}

		filters := []struct {
			args []string
			keep func(fields []string, line string) bool
		}{
			{[]string{"--app", "PROC", "--ctx", "PROC"}, func(f []string, _ string) bool { return f[6] == "PROC" && f[7] == "PROC" }},
			{[]string{"--type", "control"}, func(f []string, _ string) bool { return f[8] == "control" }},
			{[]string{"--level", "info"}, func(f []string, _ string) bool { return f[8] == "log" && f[9] != "debug" && f[9] != "verbose" }},
			{[]string{"--grep", `IRQ (BEG|END)`}, func(_ []string, l string) bool {
				return regexp.MustCompile(`IRQ (BEG|END)`).MatchString(l[strings.Index(l, "["):])
			}},
			{[]string{"--ecu", "NONE"}, func([]string, string) bool { return false }},
			{[]string{"--from", "2026-11-22T02:52:20Z", "--to", "2026-11-22T02:52:30Z"}, func(f []string, _ string) bool {
				at, err := time.ParseInLocation("2006/01/02 15:04:05.000000", f[1]+" "+f[2], time.Local)
				if err != nil {
					t.Fatalf("dlt-convert's time %q: %v", f[1]+" "+f[2], err)
				}
				return !at.Before(time.Date(2026, 11, 22, 2, 52, 20, 0, time.UTC)) && at.Before(time.Date(2026, 11, 22, 2, 52, 30, 0, time.UTC))
			}},
		}
		for _, flt := range filters {
			var wantLines []string
			for _, l := range want {
				if flt.keep(strings.Fields(l), l) {
					wantLines = append(wantLines, l)
				}
			}
			out.Reset()
			if code := run(append(append([]string{"dlt"}, flt.args...), f), &out, &errb); code != 0 {
				t.Fatalf("%v: exit %d", flt.args, code)
			}
			got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if out.Len() == 0 {
				got = nil
			}
			if strings.Join(got, "\n") != strings.Join(wantLines, "\n") {
				t.Errorf("%s %v: %d lines, dlt-convert's matching lines: %d", f, flt.args, len(got), len(wantLines))
			}
		}

		out.Reset()
		if code := run([]string{"dlt", "--json", f}, &out, &errb); code != 0 {
			t.Fatalf("--json: exit %d", code)
		}
		sc := bufio.NewScanner(&out)
		sc.Buffer(nil, 1<<20)
		i := 0
		for sc.Scan() {
			var m struct {
				Index                          int
				ECU, Apid, Ctid, Type, Subtype string
				Payload                        string
			}
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatalf("--json line %d: %v", i, err)
			}
			// index, date, time, timestamp, counter, ECU, apid, ctid, type, ...
			fl := strings.Fields(want[i])
			// JSON text is UTF-8: each byte that is not becomes U+FFFD.
			tool := string([]rune(want[i]))
			if m.Index != i || m.ECU != fl[5] || m.Type != fl[8] || !strings.HasSuffix(tool, "["+m.Payload+"]") {
				t.Errorf("%s --json %d: %+v\ndlt-convert: %s", f, i, m, want[i])
			}
			i++
		}
		if i != len(want) {
			t.Errorf("%s --json: %d objects, %d messages", f, i, len(want))
		}
	}
}

// perfwire dlt --follow reads the running daemon (scripts/dlt-up.sh):
// dlt-kpi's messages arrive as lines in dlt-convert's format.
func TestConformanceDLTFollow(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "perfwire")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "dlt", "--follow", "localhost", "--app", "PROC")
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second) // dlt-kpi reports every second
	cmd.Process.Kill()
	cmd.Wait()
	line := regexp.MustCompile(`^\d+ \d{4}/\d\d/\d\d \d\d:\d\d:\d\d\.\d{6} +\d+ \d{3} \S+ PROC PROC log \w+ V \d+ \[.*\]$`)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) < 5 {
		t.Fatalf("%d lines in 3 s: %q", len(lines), out.String())
	}
	for _, l := range lines[:len(lines)-1] { // the last may be cut by the kill
		if !line.MatchString(l) {
			t.Errorf("line %q", l)
		}
	}
}
