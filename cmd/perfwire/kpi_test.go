package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/dlt"
)

const kpiTestdata = "../../dltkpi/testdata/"

// statsTotals reads the "datasets per data message" histograms of a
// capture's .stats.txt (written by the capture lab's own Python reader)
// and returns the number of dataset arguments per kind, fragments
// included, and the number of "[KIND BEG]"/"[KIND END]" groups.
func statsTotals(t *testing.T, name string) (args map[string]int, groups map[string]int, messages int) {
	b := readTestFile(t, kpiTestdata+name+".stats.txt")
	args, groups = map[string]int{}, map[string]int{}
	hist := regexp.MustCompile(`^  (NEW|STP|ACT|CHK|IRQ): \{(.*)\}  maxLEN`)
	grp := regexp.MustCompile(`^  (NEW|STP|ACT|CHK|IRQ): (\d+) groups`)
	kinds := regexp.MustCompile(`^  (NEW|STP|ACT|CHK|IRQ)( BEG| END)?\s+(\d+)$`)
	for _, line := range strings.Split(string(b), "\n") {
		if m := hist.FindStringSubmatch(line); m != nil {
			for _, kv := range strings.Split(m[2], ", ") {
				k, v, _ := strings.Cut(kv, ": ")
				n, _ := strconv.Atoi(k)
				c, _ := strconv.Atoi(v)
				args[m[1]] += n * c
			}
		}
		if m := grp.FindStringSubmatch(line); m != nil {
			groups[m[1]], _ = strconv.Atoi(m[2])
		}
		if m := kinds.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[3])
			messages += n
		}
	}
	return args, groups, messages
}

// TestKPISummary checks --summary on each capture against the lab's
// independent statistics: message and group counts, and datasets plus
// truncated duplicates adding up to the dataset arguments it counted.
func TestKPISummary(t *testing.T) {
	for _, name := range []string{"kpi-odd", "kpi-huge-argv0", "excerpt-irq-strtok-race"} {
		var out, errb bytes.Buffer
		if code := run([]string{"kpi", "--summary", kpiTestdata + name + ".dlt"}, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errb.String())
		}
		var s struct {
			Messages     int            `json:"messages"`
			Datasets     map[string]int `json:"datasets"`
			Groups       map[string]int `json:"groups"`
			Truncated    int            `json:"truncated"`
			OpenGroups   int            `json:"open_groups"`
			SkippedBytes int            `json:"skipped_bytes"`
		}
		if err := json.Unmarshal(out.Bytes(), &s); err != nil {
			t.Fatalf("%s: %v: %s", name, err, out.String())
		}
		if !strings.HasPrefix(out.String(), `{"messages":`) || !strings.Contains(out.String(), `"datasets":{"NEW":`) {
			t.Errorf("%s: key order: %s", name, out.String())
		}
		args, groups, messages := statsTotals(t, name)
		if s.Messages != messages || s.SkippedBytes != 0 {
			t.Errorf("%s: %d messages (stats %d), skipped %d", name, s.Messages, messages, s.SkippedBytes)
		}
		sumArgs, sumDS := 0, 0
		for k, n := range args {
			sumArgs += n
			sumDS += s.Datasets[k]
			if s.Datasets[k] > n {
				t.Errorf("%s: %s: %d datasets, stats counted %d arguments", name, k, s.Datasets[k], n)
			}
			if g := groups[k]; s.Groups[k] != g {
				t.Errorf("%s: %s: %d groups, stats %d", name, k, s.Groups[k], g)
			}
		}
		if sumDS+s.Truncated != sumArgs {
			t.Errorf("%s: %d datasets + %d truncated, stats counted %d arguments", name, sumDS, s.Truncated, sumArgs)
		}
	}
}

// TestKPIJSON: one JSON object per KPI message, kinds and sync codes as
// in the dlt-convert oracle.
func TestKPIJSON(t *testing.T) {
	out := runOK(t, "kpi", "--json", kpiTestdata+"kpi-odd.dlt")
	oracle := readTestFile(t, kpiTestdata+"kpi-odd.ascii.txt")
	var want []string
	for _, line := range strings.Split(string(oracle), "\n") {
		if i := strings.Index(line, " PROC PROC "); i > 0 {
			args := line[strings.IndexByte(line, '[')+1:]
			w := args[:3]
			if strings.HasPrefix(args[3:], " BEG]") || strings.HasPrefix(args[3:], " END]") {
				w += " " + args[4:7]
			}
			want = append(want, w)
		}
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	i := 0
	badUTF8 := false
	for sc.Scan() {
		var m struct {
			Time     float64          `json:"time"`
			Kind     string           `json:"kind"`
			Sync     string           `json:"sync"`
			Datasets []map[string]any `json:"datasets"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		got := m.Kind
		if m.Sync != "" {
			got += " " + m.Sync
		}
		if i >= len(want) || got != want[i] || m.Time <= 0 || (m.Sync == "") == (len(m.Datasets) == 0) {
			t.Fatalf("message %d: %s", i, sc.Bytes())
		}
		for _, d := range m.Datasets {
			// kpi-odd.truth.tsv: pid 15189's argv[0] is invalid UTF-8; the
			// JSON string is lossy, so its bytes come along in hex.
			if m.Kind == "NEW" && d["pid"] == float64(15189) {
				badUTF8 = true
				if d["cmd_hex"] != "6c6174696e312de92dfffe2d6279746573" || d["ppid"] != float64(14985) {
					t.Errorf("pid 15189: %v", d)
				}
			}
		}
		i++
	}
	if i != len(want) {
		t.Fatalf("%d JSON lines, %d KPI messages in the oracle", i, len(want))
	}
	if !badUTF8 {
		t.Error("NEW dataset of pid 15189 not found")
	}
}

// TestKPITable: the final table of kpi-odd lists dlt-kpi itself with its
// ACT values and the host's processes, and none of the spawned ones.
func TestKPITable(t *testing.T) {
	s := runOK(t, "kpi", kpiTestdata+"kpi-odd.dlt")
	if !regexp.MustCompile(`(?m)^\s+14698\s+1\s+\d+\s+\d+ .* /usr/bin/dlt-kpi$`).MatchString(s) {
		t.Errorf("no dlt-kpi row:\n%s", s)
	}
	if strings.Contains(s, "LONG1-") || strings.Contains(s, "busy-normal") {
		t.Error("ended processes in the final table")
	}
}

func TestKPIErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"kpi"}, 2},
		{[]string{"kpi", "--json", "--summary", "x.dlt"}, 2},
		{[]string{"kpi", "--bogus", "x.dlt"}, 2},
		{[]string{"kpi", "/nonexistent.dlt"}, 1},
	} {
		var out, errb bytes.Buffer
		if code := run(tc.args, &out, &errb); code != tc.code {
			t.Errorf("%q: exit %d, want %d (%s)", tc.args, code, tc.code, errb.String())
		}
	}
	// A capture cut inside its last record: exit 1, the error names the
	// file and the offset, and what came before is still decoded.
	b := readTestFile(t, kpiTestdata+"excerpt-irq-strtok-race.dlt")
	cut := writeTestFile(t, t.TempDir(), "cut.dlt", b[:len(b)-5])
	var out, errb bytes.Buffer
	if code := run([]string{"kpi", "--summary", cut}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "cut.dlt") || !strings.Contains(errb.String(), "offset") {
		t.Errorf("cut file: exit %d, stderr %q", code, errb.String())
	}
	if !strings.Contains(out.String(), `"messages":33`) {
		t.Errorf("cut file: summary %s", out.String())
	}
}

// TestKPIAll: --all lists every process seen, a reused pid once per
// process, with when and why each one ended; --irqs prints the table of
// each applied IRQ group; the output modes exclude each other.
func TestKPIAll(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"kpi", "--all", "../../viewer/testdata/kpi-reuse.dlt"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	want := `    PID    PPID        START          END    LIFETIME ENDED   FLAGS COMMAND
      1       0     100.0000            -     19.0000 -       -     /sbin/init
    100       1     100.0000            -     20.0000 -       -     /usr/bin/dlt-daemon
    200       1     100.0000     111.6000     11.6000 NEW     -     /usr/bin/worker
    200       1     111.6000            -      8.4000 -       -     /usr/bin/worker --again
    300     200     100.0000     104.7000      4.7000 STP     -     job-a
    300     200     106.8000            -     13.2000 -       -     job-b
    301     200     100.0000     116.9500     16.9500 CHK     -     (kworker/0:1)
    400     100     113.9000     115.5000      1.6000 STP     -     short-lived
# 8 processes, 4 of them ended
`
	if out.String() != want {
		t.Errorf("perfwire kpi --all:\n%s\nwant:\n%s", out.String(), want)
	}
	out.Reset()
	if code := run([]string{"kpi", "--irqs", "../../viewer/testdata/kpi-reuse.dlt"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var last struct {
		Name      string
		CPU       int
		PerSecond float64 `json:"per_second"`
		TMSP      uint32
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || len(lines) != 6*12 {
		t.Fatalf("%d lines, the last %q: %v", len(lines), lines[len(lines)-1], err)
	}
	if last.TMSP != 1182000 || last.Name != "eth0" || last.CPU != 1 || last.PerSecond != 302 {
		t.Errorf("last IRQ row %+v", last)
	}
	if code := run([]string{"kpi", "--all", "--irqs", "x.dlt"}, &out, &errb); code != 2 {
		t.Errorf("--all --irqs: exit %d", code)
	}
	for _, tc := range []struct {
		t    int64
		want string
	}{{0, "0.0000"}, {1182000, "118.2000"}, {7, "0.0007"}, {-15, "-0.0015"}} {
		if got := tmspSeconds(tc.t); got != tc.want {
			t.Errorf("tmspSeconds(%d) = %s, want %s", tc.t, got, tc.want)
		}
	}
}

// TestKPISerial: a serial capture ("DLS" 01 before each message) of
// kpi-odd's messages gives what the .dlt file gives (whose --json
// TestKPIJSON checks against dlt-convert's text), in every mode; damaged,
// it is resynchronised over and the damage reported.
func TestKPISerial(t *testing.T) {
	data := readTestFile(t, kpiTestdata+"kpi-odd.dlt")
	var serial []byte
	s := dlt.NewScanner(data, dlt.Options{})
	n := 0
	for s.Next() {
		serial = append(dlt.AppendSerialHeader(serial), s.Message().Bytes()[dlt.StorageHeaderLen:]...)
		n++
		if n == 20 {
			serial = append(serial, "garbage"...)
		}
	}
	dir := t.TempDir()
	os.WriteFile(dir+"/serial.dlt", serial, 0o644)
	for _, mode := range []string{"--json", "--summary", "--all", "--irqs"} {
		var want, got, errb bytes.Buffer
		run([]string{"kpi", mode, kpiTestdata + "kpi-odd.dlt"}, &want, &errb)
		errb.Reset()
		if code := run([]string{"kpi", mode, dir + "/serial.dlt"}, &got, &errb); code != 0 || !strings.Contains(errb.String(), "skipped 7 damaged bytes in 1 places") {
			t.Errorf("kpi %s on the serial capture: exit %d, %q", mode, code, errb.String())
		}
		if mode == "--summary" {
			// The damage is in the summary: the rest is the same.
			w, g := map[string]any{}, map[string]any{}
			json.Unmarshal(want.Bytes(), &w)
			json.Unmarshal(got.Bytes(), &g)
			if g["skipped_bytes"] != float64(7) {
				t.Errorf("kpi --summary on the serial capture: %s", got.Bytes())
			}
			delete(w, "skipped_bytes")
			delete(g, "skipped_bytes")
			delete(w, "skipped_places")
			delete(g, "skipped_places")
			delete(w, "skip_error")
			delete(g, "skip_error")
			if !reflect.DeepEqual(w, g) {
				t.Errorf("kpi --summary: serial %v, .dlt %v", g, w)
			}
			continue
		}
		if got.String() != want.String() || got.Len() == 0 {
			t.Errorf("kpi %s: the serial capture gives %d bytes, the .dlt file %d", mode, got.Len(), want.Len())
		}
	}
}
