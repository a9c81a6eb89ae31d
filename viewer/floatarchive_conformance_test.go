//go:build conformance

package viewer

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// Values of the archive writeFloatArchive writes: each a float metric's
// (test.float) and, its double (test.double), the same float32 widened:
// 0.1f is 0.10000000149011612 as a double, whose shortest text a float's
// is not.
var floatValues = []float32{0.1, 2.5, 0.33333334, 1e-7}

// writeFloatArchive writes, with perfwire's archive writer, a version 3
// archive of two singular metrics, one a float, one a double, a record
// each second, and returns its base name.
func writeFloatArchive(t *testing.T) string {
	t.Helper()
	base := filepath.Join(t.TempDir(), "floats")
	create := func(suffix string) *os.File {
		f, err := os.Create(base + suffix)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	start := archive.Timestamp{Sec: 1764000000, Nsec: 0}
	w, err := archive.NewWriter(archive.Label{Version: 3, PID: 1, Start: start, Hostname: "floats", TZ: "UTC", Zoneinfo: ":Etc/UTC"},
		create(".meta"), create(".index"), create(".0"))
	if err != nil {
		t.Fatal(err)
	}
	f := pcp.Desc{ID: pcp.NewID(245, 0, 1), Type: pcp.TypeFloat, InDom: pcp.InDomNull, Sem: pcp.SemInstant}
	d := pcp.Desc{ID: pcp.NewID(245, 0, 2), Type: pcp.TypeDouble, InDom: pcp.InDomNull, Sem: pcp.SemInstant}
	w.Metric(archive.Metric{Desc: f, Names: []string{"test.float"}})
	w.Metric(archive.Metric{Desc: d, Names: []string{"test.double"}})
	for i, v := range floatValues {
		at := archive.Timestamp{Sec: start.Sec + int64(i) + 1}
		r := pduwire.ResultPDU{Sec: at.Sec, Sets: []pduwire.ValueSetData{
			{PMID: f.ID, ValFmt: pduwire.ValInsitu, Values: []pduwire.ValueData{{Inst: pcp.InNull, Word: math.Float32bits(v)}}},
			{PMID: d.ID, ValFmt: pduwire.ValDPTR, Values: []pduwire.ValueData{{Inst: pcp.InNull, BlockType: pcp.TypeDouble,
				Payload: binary.BigEndian.AppendUint64(nil, math.Float64bits(float64(v)))}}},
		}}
		if err := w.Result(at, &r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	return base
}

// checkFloatArchive compares the values the viewer shows for the archive
// of writeFloatArchive with pmdumplog's (a float with 8 significant
// digits, a double with 16) and perfwire archive --json's (the same
// numbers): a float's value is its shortest text as a float, a double's
// the double's own, though it holds a float's value exactly.
func checkFloatArchive(t *testing.T, bin string, got archiveView, base string) {
	t.Helper()
	if got.State != "done" {
		t.Fatalf("float archive: state %q, status %q", got.State, got.Status)
	}
	dump, err := exec.Command("pmdumplog", base, "test.float", "test.double").Output()
	if err != nil {
		t.Fatalf("pmdumplog: %v", err)
	}
	want := map[string][]string{}
	for _, m := range regexp.MustCompile(`(?m)^    245\.0\.\d \((\S+)\): value (\S+)$`).FindAllStringSubmatch(string(dump), -1) {
		want[m[1]] = append(want[m[1]], m[2])
	}
	out, err := exec.Command(bin, "archive", "--json", base).Output()
	if err != nil {
		t.Fatalf("perfwire archive --json: %v", err)
	}
	cli := map[string][]float64{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		var r struct {
			Values []struct {
				Name  string
				Value float64
			}
		}
		json.Unmarshal([]byte(line), &r)
		for _, v := range r.Values {
			cli[v.Name] = append(cli[v.Name], v.Value)
		}
	}
	for _, name := range []string{"test.float", "test.double"} {
		rows, w := got.Rows[name], want[name]
		if len(rows) != len(floatValues) || len(w) != len(rows) || len(cli[name]) != len(rows) {
			t.Errorf("float archive %s: %d rows; pmdumplog %d values, perfwire archive --json %d", name, len(rows), len(w), len(cli[name]))
			continue
		}
		for i, r := range rows {
			v, err := strconv.ParseFloat(r[4], 64)
			d, _ := strconv.ParseFloat(w[i], 64)
			if err != nil || v != cli[name][i] || math.Abs(v-d) > 1e-15*math.Abs(d) {
				t.Errorf("float archive %s row %d: %q; pmdumplog %s, perfwire archive --json %v", name, i, r[4], w[i], cli[name][i])
			}
			// A float is written with no more digits than pmdumplog's.
			if name == "test.float" && len(strings.TrimLeft(strings.ReplaceAll(r[4], ".", ""), "0")) > 8 {
				t.Errorf("float archive %s row %d: %q, more digits than a float has", name, i, r[4])
			}
		}
	}
}
