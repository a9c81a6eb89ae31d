//go:build conformance

package pmapi

import (
	"context"
	"errors"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// The oracle is the real pminfo/pmprobe talking to the same pmcd.
func pminfo(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("pminfo", append([]string{"-h", "127.0.0.1"}, args...)...).Output()
	if err != nil {
		t.Fatalf("pminfo %v: %v", args, err)
	}
	return string(out)
}

func dial(t *testing.T) *Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, "127.0.0.1:44321")
	if err != nil {
		t.Fatalf("Dial (is pmcd up? scripts/pcp-up.sh): %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

var roots = []string{"sample", "simple", "trivial", "mmv"}

// TestConformanceNamesAndDescs checks every metric of the four PMDAs:
// names (traversal), pmIDs and instance domains against pminfo -m -d.
func TestConformanceNamesAndDescs(t *testing.T) {
	c := dial(t)
	ctx := context.Background()
	re := regexp.MustCompile(`(?m)^(\S+) PMID: (\S+)\n\s+Data Type: .*InDom: \S+ (0x[0-9a-f]+)$`)
	want := map[string][2]string{}
	for _, m := range re.FindAllStringSubmatch(pminfo(t, append([]string{"-m", "-d"}, roots...)...), -1) {
		want[m[1]] = [2]string{m[2], m[3]}
	}
	if len(want) < 100 {
		t.Fatalf("pminfo listed only %d metrics", len(want))
	}
	var names []string
	for _, r := range roots {
		n, err := c.Traverse(ctx, r)
		if err != nil {
			t.Fatalf("Traverse(%s): %v", r, err)
		}
		names = append(names, n...)
	}
	if len(names) < len(want) {
		t.Errorf("traversal found %d names, pminfo described %d", len(names), len(want))
	}
	ids, err := c.LookupName(ctx, names...)
	if err != nil {
		t.Fatal(err)
	}
	descs, err := c.LookupDescs(ctx, ids...)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range names {
		w, ok := want[n]
		if !ok {
			// pminfo -d leaves out metrics whose descriptor pmcd cannot
			// give; LookupDescs must report the same as a null entry.
			if descs[i].ID != pcp.IDNull {
				t.Errorf("%s: not described by pminfo, but LookupDescs gave %+v", n, descs[i])
			}
			continue
		}
		if ids[i].String() != w[0] {
			t.Errorf("%s: pmID %s, pminfo %s", n, ids[i], w[0])
		}
		if got := "0x" + strconv.FormatUint(uint64(descs[i].InDom), 16); got != w[1] || descs[i].ID != ids[i] {
			t.Errorf("%s: desc %+v, pminfo indom %s", n, descs[i], w[1])
		}
		// A pmID may have several names (sample.secret.* aliases pmcd
		// metrics); each name NameID returns must resolve back to it.
		back, err := c.NameID(ctx, ids[i])
		if err != nil || len(back) == 0 {
			t.Errorf("NameID(%s) = %q, %v", ids[i], back, err)
			continue
		}
		if again, err := c.LookupName(ctx, back...); err != nil || again[0] != ids[i] {
			t.Errorf("NameID(%s) = %q resolves to %v, %v", ids[i], back, again, err)
		}
	}
}

// TestConformanceHelpText compares one-line help of every metric with
// pminfo -t.
func TestConformanceHelpText(t *testing.T) {
	c := dial(t)
	ctx := context.Background()
	re := regexp.MustCompile(`(?m)^(\S+) \[(.*)\]$`)
	matches := re.FindAllStringSubmatch(pminfo(t, append([]string{"-t"}, roots...)...), -1)
	if len(matches) < 100 {
		t.Fatalf("pminfo -t gave only %d help lines", len(matches))
	}
	for _, m := range matches {
		ids, err := c.LookupName(ctx, m[1])
		if err != nil {
			t.Fatalf("LookupName(%s): %v", m[1], err)
		}
		got, err := c.LookupText(ctx, ids[0], false)
		if err != nil {
			t.Errorf("LookupText(%s): %v", m[1], err)
		} else if got != m[2] {
			t.Errorf("%s: help %q, pminfo %q", m[1], got, m[2])
		}
	}
}

// TestConformanceInstances compares instance domains with pmprobe -I/-i.
func TestConformanceInstances(t *testing.T) {
	c := dial(t)
	ctx := context.Background()
	for _, name := range []string{"sample.colour", "simple.color", "sample.bin", "simple.now"} {
		out, err := exec.Command("pmprobe", "-h", "127.0.0.1", "-I", name).Output()
		if err != nil {
			t.Fatalf("pmprobe: %v", err)
		}
		want := regexp.MustCompile(`"([^"]*)"`).FindAllStringSubmatch(string(out), -1)
		ids, err := c.LookupName(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		d, err := c.LookupDesc(ctx, ids[0])
		if err != nil {
			t.Fatal(err)
		}
		insts, err := c.GetInDom(ctx, d.InDom)
		if err != nil {
			t.Fatal(err)
		}
		if len(insts) != len(want) {
			t.Fatalf("%s: %d instances, pmprobe %d (%s)", name, len(insts), len(want), out)
		}
		for i, in := range insts {
			if in.Name != want[i][1] {
				t.Errorf("%s: instance %d named %q, pmprobe %q", name, i, in.Name, want[i][1])
			}
			n, err := c.NameInDom(ctx, d.InDom, in.Inst)
			if err != nil || n != in.Name {
				t.Errorf("NameInDom(%d) = %q, %v", in.Inst, n, err)
			}
			id, err := c.LookupInDom(ctx, d.InDom, in.Name)
			if err != nil || id != in.Inst {
				t.Errorf("LookupInDom(%q) = %d, %v; want %d", in.Name, id, err, in.Inst)
			}
		}
	}
}

// TestConformanceFetchAndStore fetches constant metrics and compares with
// pminfo -f, stores into sample.write_me and reads it back with pminfo,
// and checks that a read-only metric refuses a store.
func TestConformanceFetchAndStore(t *testing.T) {
	c := dial(t)
	ctx := context.Background()
	names := []string{"sample.long.one", "sample.long.ten", "sample.long.hundred", "sample.long.million", "sample.ulong.ten"}
	ids, err := c.LookupName(ctx, names...)
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Fetch(ctx, ids...)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Highres || r.Sec < time.Now().Add(-time.Hour).Unix() {
		t.Errorf("result timestamp %d.%09d (highres %v) is not now", r.Sec, r.Nsec, r.Highres)
	}
	out := pminfo(t, append([]string{"-f"}, names...)...)
	i := 0
	for vs := range r.ValueSets() {
		if vs.PMID != ids[i] || vs.Len() != 1 {
			t.Fatalf("value set %d: %+v", i, vs)
		}
		want := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(names[i]) + `\n\s+value (\d+)$`).FindStringSubmatch(out)
		if want == nil || strconv.FormatUint(uint64(vs.Value(0).Word), 10) != want[1] {
			t.Errorf("%s = %d, pminfo says %v", names[i], vs.Value(0).Word, want)
		}
		i++
	}

	wm, err := c.LookupName(ctx, "sample.write_me")
	if err != nil {
		t.Fatal(err)
	}
	v := uint32(time.Now().UnixNano()%1000 + 7)
	err = c.Store(ctx, []pduwire.ValueSetData{{PMID: wm[0], ValFmt: pduwire.ValInsitu,
		Values: []pduwire.ValueData{{Inst: pcp.InNull, Word: v}}}})
	if err != nil {
		t.Fatalf("store: %v", err)
	}
	if got := pminfo(t, "-f", "sample.write_me"); !strings.Contains(got, "value "+strconv.Itoa(int(v))+"\n") {
		t.Errorf("pminfo after storing %d shows %q", v, got)
	}
	err = c.Store(ctx, []pduwire.ValueSetData{{PMID: ids[0], ValFmt: pduwire.ValInsitu,
		Values: []pduwire.ValueData{{Inst: pcp.InNull, Word: 5}}}})
	var se *ServerError
	if !errors.As(err, &se) || !errors.Is(err, pcp.ErrPermission) { // as pmstore reports it
		t.Errorf("store to read-only %s: %v, want PM_ERR_PERMISSION", names[0], err)
	}
	if out, _ := exec.Command("pmstore", "-h", "127.0.0.1", names[0], "5").CombinedOutput(); !strings.Contains(string(out), "No permission") {
		t.Errorf("pmstore on %s says %q; the oracle no longer refuses", names[0], out)
	}
}

// TestConformanceLabels merges the labels of every metric and instance of
// the four PMDAs and compares them with pminfo -l.
func TestConformanceLabels(t *testing.T) {
	c := dial(t)
	ctx := context.Background()
	out := pminfo(t, append([]string{"-l"}, roots...)...)
	metricRe := regexp.MustCompile(`(?m)^(\S+)\n    labels (\{.*\})$`)
	instRe := regexp.MustCompile(`^    inst \[(-?\d+) or "[^"]*"\] labels (\{.*\})$`)
	blocks := strings.Split(out, "\n\n")
	checked, insts := 0, 0
	for _, b := range blocks {
		m := metricRe.FindStringSubmatch(strings.TrimSpace(b))
		if m == nil {
			continue
		}
		ids, err := c.LookupName(ctx, m[1])
		if err != nil {
			t.Fatal(err)
		}
		d, err := c.LookupDesc(ctx, ids[0])
		if err != nil {
			t.Fatal(err)
		}
		ml, err := c.MetricLabels(ctx, d)
		if err != nil {
			t.Fatalf("%s: %v", m[1], err)
		}
		if got := string(ml.Metric.JSON); got != m[2] {
			t.Errorf("%s: labels %s, pminfo %s", m[1], got, m[2])
		}
		checked++
		for _, line := range strings.Split(b, "\n") {
			im := instRe.FindStringSubmatch(line)
			if im == nil {
				continue
			}
			inst, _ := strconv.Atoi(im[1])
			if got := string(ml.ForInstance(int32(inst)).JSON); got != im[2] {
				t.Errorf("%s inst %d: labels %s, pminfo %s", m[1], inst, got, im[2])
			}
			insts++
		}
	}
	if checked < 100 || insts < 100 {
		t.Fatalf("compared only %d metrics and %d instances", checked, insts)
	}
	t.Logf("%d metrics and %d instances match pminfo -l", checked, insts)
}
