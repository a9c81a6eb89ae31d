//go:build conformance

package viewer

import (
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// vcrState is what e2e.mjs read of the archive view's VCR at one moment.
type vcrState struct {
	Position  int
	Playing   bool
	Range     []float64
	Text, Now string
	At        struct {
		Record int
		Stamp  string
		Values map[string][]struct {
			Inst            int
			Instance, Value string
		}
	}
}

// checkArchiveVCR compares the VCR's positions (as it opened: the last
// record; three steps from the start and one back; paused after half a
// second of play at 1×, and still there later; played to the end) with
// perfwire archive --json on the archive BASE: at each the charts end at
// that record's time and the values listed are that record's.
func checkArchiveVCR(t *testing.T, bin string, got map[string]vcrState, base string) {
	t.Helper()
	out, err := exec.Command(bin, "archive", "--json", base).Output()
	if err != nil {
		t.Fatalf("perfwire archive --json: %v", err)
	}
	type record struct {
		Timestamp string
		Values    []struct {
			Name     string
			Inst     int
			Instance *string
			Value    json.RawMessage
		}
	}
	var recs []record
	var x []float64
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		var r record
		json.Unmarshal([]byte(line), &r)
		at, err := time.Parse(time.RFC3339Nano, r.Timestamp)
		if err != nil {
			t.Fatal(err)
		}
		if len(x) == 0 {
			x = append(x, 0)
		} else {
			first, _ := time.Parse(time.RFC3339Nano, recs[0].Timestamp)
			x = append(x, at.Sub(first).Seconds())
		}
		recs = append(recs, r)
	}
	last := len(recs) - 1
	check := func(what string, v vcrState) {
		t.Helper()
		p := v.Position
		if p < 0 || p > last || v.At.Record != p || v.At.Stamp != recs[p].Timestamp ||
			!strings.HasPrefix(v.Text, fmt.Sprintf("record %d of %d · %s", p+1, len(recs), recs[p].Timestamp)) {
			t.Errorf("VCR %s: position %d (%q, at %d %s); perfwire archive --json has %d records", what, p, v.Text, v.At.Record, v.At.Stamp, len(recs))
			return
		}
		if len(v.Range) != 2 || math.Abs(v.Range[1]-x[p]) > 1e-6 {
			t.Errorf("VCR %s: the charts' range %v, record %d is at %v s", what, v.Range, p+1, x[p])
		}
		if len(v.At.Values) != 3 {
			t.Errorf("VCR %s: values of %d metrics, 3 charted", what, len(v.At.Values))
		}
		for name, vs := range v.At.Values {
			var want [][2]string // instance, JSON value
			for _, w := range recs[p].Values {
				if w.Name == name {
					inst := ""
					if w.Instance != nil {
						inst = *w.Instance
					}
					want = append(want, [2]string{inst, string(w.Value)})
				}
			}
			ok := len(vs) == len(want)
			for k := 0; ok && k < len(vs); k++ {
				// The value as the table writes it: JSON's text, or the
				// same number.
				a, errA := strconv.ParseFloat(vs[k].Value, 64)
				b, errB := strconv.ParseFloat(want[k][1], 64)
				ok = vs[k].Instance == want[k][0] && (vs[k].Value == want[k][1] || errA == nil && errB == nil && a == b)
			}
			if !ok {
				t.Errorf("VCR %s: %s at record %d: %+v; perfwire archive --json %q", what, name, p+1, vs, want)
			}
			if !strings.Contains(v.Now, name+": ") {
				t.Errorf("VCR %s: the page lists no values of %s: %q", what, name, v.Now)
			}
		}
	}
	for _, what := range []string{"initial", "stepped", "paused", "still", "end"} {
		check(what, got[what])
	}
	if got["initial"].Position != last || got["stepped"].Position != 2 || got["end"].Position != last || got["end"].Playing {
		t.Errorf("VCR: as opened at %d, stepped to %d, played to %d (playing %v); %d records", got["initial"].Position,
			got["stepped"].Position, got["end"].Position, got["end"].Playing, len(recs))
	}
	// Half a second of play at 1× from record 3: half a second of the
	// archive's time on, give or take the page's timer.
	p := got["paused"]
	if p.Playing || p.Position <= 2 || p.Position >= last || got["still"].Position != p.Position ||
		x[p.Position]-x[2] < 0.2 || x[p.Position]-x[2] > 1.0 {
		t.Errorf("VCR paused after 0.5 s at 1× from record 3 (%v s): at record %d (%v s), playing %v; 0.4 s later at %d", x[2], p.Position+1,
			x[p.Position], p.Playing, got["still"].Position+1)
	}
}
