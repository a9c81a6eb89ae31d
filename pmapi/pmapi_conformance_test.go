//go:build conformance

package pmapi

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/mmv/mmvfile"
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

func dial(t *testing.T, opts ...Options) *Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, "127.0.0.1:44321", append(opts, Options{})[0])
	if err != nil {
		t.Fatalf("Dial (is pmcd up? scripts/pcp-up.sh): %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// roots are the PMNS subtrees the whole-namespace tests walk. Of the mmv
// PMDA only its own metrics: the MMV files that other test packages create
// and remove meanwhile (go test runs packages in parallel) would make the
// comparison with pminfo racy.
var roots = []string{"sample", "simple", "trivial", "mmv.control"}

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
	for _, mode := range ioModes {
		t.Run(mode.name, func(t *testing.T) {
			c := dial(t, mode.opts)
			if (c.blk != nil) != mode.opts.BlockingIO {
				t.Fatalf("blocking I/O is %v", c.blk != nil)
			}
			fetchAndStore(t, c)
		})
	}
}

func fetchAndStore(t *testing.T, c *Client) {
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
	if !r.HighRes || r.Sec < time.Now().Add(-time.Hour).Unix() {
		t.Errorf("result timestamp %d.%09d (highres %v) is not now", r.Sec, r.Nsec, r.HighRes)
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

// pminfoBlocks splits pminfo output into metric blocks: name -> the
// lines after the name line.
func pminfoBlocks(out string) map[string]string {
	blocks := map[string]string{}
	for _, b := range strings.Split(out, "\n\n") {
		name, rest, ok := strings.Cut(strings.Trim(b, "\n"), "\n")
		if ok {
			blocks[name] = rest
		}
	}
	return blocks
}

// pminfoHelp reads pminfo -T output: a blank line, the metric name, a
// "Help:" line, then the text, which may itself hold blank lines.
func pminfoHelp(out string) map[string]string {
	help := map[string]string{}
	lines := strings.Split(out, "\n")
	name, start := "", 0
	flush := func(end int) {
		if name != "" {
			help[name] = strings.Trim(strings.Join(lines[start:end], "\n"), "\n")
		}
	}
	for i := 1; i+1 < len(lines); i++ {
		if lines[i-1] == "" && lines[i+1] == "Help:" && !strings.Contains(lines[i], " ") {
			flush(i - 1)
			name, start = lines[i], i+2
		}
	}
	flush(len(lines))
	return help
}

// allMetrics returns every leaf name of the four PMDAs with its descriptor.
func allMetrics(t *testing.T, c *Client) ([]string, []pcp.Desc) {
	ctx := context.Background()
	var names []string
	for _, r := range roots {
		n, err := c.Traverse(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, n...)
	}
	ids, err := c.LookupName(ctx, names...)
	if err != nil {
		t.Fatal(err)
	}
	descs, err := c.LookupDescs(ctx, ids...)
	if err != nil {
		t.Fatal(err)
	}
	return names, descs
}

// TestConformanceEveryDescAndHelp compares the full descriptor (type,
// instance domain, semantics, units) and the full help text of every
// metric with pminfo -d and pminfo -T.
func TestConformanceEveryDescAndHelp(t *testing.T) {
	c := dial(t)
	ctx := context.Background()
	names, descs := allMetrics(t, c)
	wantDesc := pminfoBlocks(pminfo(t, append([]string{"-d"}, roots...)...))
	wantHelp := pminfoHelp(pminfo(t, append([]string{"-T"}, roots...)...))
	nd, nh := 0, 0
	for i, n := range names {
		if descs[i].ID == pcp.IDNull {
			continue // pminfo reports these on stderr
		}
		// pminfo may print another metric's error right after a block, and
		// for NOSUPPORT it prints the whole descriptor where libpcp's
		// pmPrintDesc (our String) stops after the type.
		lines := strings.SplitN(wantDesc[n], "\n", 3)
		want := strings.Join(lines[:min(2, len(lines))], "\n")
		got := strings.TrimSuffix(descs[i].String(), "\n")
		if descs[i].Type == pcp.TypeNoSupport {
			want = want[:min(len(want), len(got))]
		}
		if got != want {
			t.Errorf("%s: descriptor\n%s\npminfo -d:\n%s", n, got, want)
		}
		nd++
		want, ok := wantHelp[n]
		if !ok {
			continue // no help text: pminfo prints an error instead
		}
		got, err := c.LookupText(ctx, descs[i].ID, true)
		if err != nil {
			t.Errorf("%s: help: %v", n, err)
		} else if strings.Trim(got, "\n") != want {
			t.Errorf("%s: help\n%q\npminfo -T:\n%q", n, got, want)
		}
		nh++
	}
	if nd < 150 || nh < 150 {
		t.Fatalf("compared only %d descriptors and %d help texts", nd, nh)
	}
	t.Logf("%d descriptors and %d help texts match pminfo", nd, nh)
}

// TestConformanceEveryInstance compares, for every metric, the instances
// of a fetch and their names with pmprobe -i -I (which prints "?N" for an
// instance number, and again for a name the instance domain lacks).
func TestConformanceEveryInstance(t *testing.T) {
	c := dial(t)
	ctx := context.Background()
	names, descs := allMetrics(t, c)
	out, err := exec.Command("pmprobe", append([]string{"-h", "127.0.0.1", "-i", "-I"}, names...)...).Output()
	if err != nil {
		t.Fatalf("pmprobe: %v", err)
	}
	want := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, rest, _ := strings.Cut(line, " ")
		want[name] = rest
	}
	// Instances that come and go between two fetches (simple.now follows
	// the clock, sample.dynamic.* change on their own) are compared only
	// when pmprobe and we saw the same ones twice in a row.
	probe := func(n string, d pcp.Desc) string {
		r, err := c.Fetch(ctx, d.ID)
		if err != nil {
			t.Fatalf("%s: fetch: %v", n, err)
		}
		var insts []int32
		var numval int32
		for vs := range r.ValueSets() {
			numval = vs.NumVal
			for v := range vs.Values() {
				insts = append(insts, v.Inst)
			}
		}
		if numval <= 0 {
			return strconv.Itoa(int(numval))
		}
		parts := []string{strconv.Itoa(len(insts))}
		for _, in := range insts {
			if d.InDom == pcp.InDomNull {
				parts = append(parts, "PM_IN_NULL", "PM_IN_NULL")
				continue
			}
			name, err := c.NameInDom(ctx, d.InDom, in)
			if err != nil {
				name = "?" + strconv.Itoa(int(in))
			} else {
				name = strconv.Quote(name)
			}
			parts = append(parts, "?"+strconv.Itoa(int(in)), name)
		}
		return strings.Join(parts, " ")
	}
	checked := 0
	for i, n := range names {
		if descs[i].ID == pcp.IDNull {
			continue
		}
		w, ok := want[n]
		if !ok {
			t.Errorf("%s: not reported by pmprobe", n)
			continue
		}
		if numval, _, _ := strings.Cut(w, " "); strings.HasPrefix(numval, "-") {
			w = numval // pmprobe adds the error text
		}
		if got := probe(n, descs[i]); got != w {
			again, err := exec.Command("pmprobe", "-h", "127.0.0.1", "-i", "-I", n).Output()
			if err == nil && strings.TrimSpace(string(again)) != n+" "+w {
				continue // this metric's instances changed meanwhile
			}
			t.Errorf("%s: instances %s, pmprobe %s", n, got, w)
		}
		checked++
	}
	if checked < 150 {
		t.Fatalf("compared only %d metrics", checked)
	}
	t.Logf("instances of %d metrics match pmprobe -i -I", checked)
}

// TestConformanceFetchEvents fetches the sample PMDA's event metrics
// several times and decodes every array in place: records carry recent
// timestamps, and every parameter is one of the sample.event.* metrics
// pmcd names.
func TestConformanceFetchEvents(t *testing.T) {
	c := dial(t)
	ctx := context.Background()
	ids, err := c.LookupName(ctx, "sample.event.records", "sample.event.highres_records")
	if err != nil {
		t.Fatal(err)
	}
	names := map[pcp.ID]string{}
	records := 0
	for range 6 {
		// Fetch, not FetchBuf: the NameID calls below would end a view.
		r, err := c.Fetch(ctx, ids...)
		if err != nil {
			t.Fatal(err)
		}
		for vs := range r.ValueSets() {
			for v := range vs.Values() {
				a, err := v.Events()
				if err != nil {
					t.Fatalf("%s inst %d: %v", vs.PMID, v.Inst, err)
				}
				for rec := range a.Records() {
					records++
					if _, missed := rec.Missed(); missed {
						continue
					}
					if age := time.Since(time.Unix(rec.Seconds(), rec.Nanoseconds())); age < -time.Minute || age > time.Hour {
						t.Errorf("%s: record stamped %v ago", vs.PMID, age)
					}
					for p := range rec.Params() {
						if _, ok := names[p.ID]; !ok {
							n, err := c.NameID(ctx, p.ID)
							if err != nil || len(n) == 0 || !strings.HasPrefix(n[0], "sample.event.") {
								t.Errorf("parameter %s named %q, %v", p.ID, n, err)
							}
							names[p.ID] = strings.Join(n, ",")
						}
					}
				}
			}
		}
	}
	if records == 0 || len(names) < 2 {
		t.Fatalf("6 fetches gave %d records with %d parameter metrics", records, len(names))
	}
	t.Logf("%d records, parameters from %d metrics", records, len(names))
}

// TestConformanceFetchAllocs: a FetchBuf loop allocates nothing per
// fetch, with either kind of I/O; Fetch allocates only its copy.
func TestConformanceFetchAllocs(t *testing.T) {
	for _, mode := range ioModes {
		t.Run(mode.name, func(t *testing.T) {
			c := dial(t, mode.opts)
			ctx := context.Background()
			ids, err := c.LookupName(ctx, "sample.long.one", "sample.double.ten", "sample.string.hullo")
			if err != nil {
				t.Fatal(err)
			}
			fetch := func() {
				if _, err := c.FetchBuf(ctx, ids...); err != nil {
					t.Fatal(err)
				}
			}
			fetch() // profile, buffers
			if n := testing.AllocsPerRun(200, fetch); n != 0 {
				t.Errorf("%v allocations per FetchBuf", n)
			}
			owned := func() {
				if _, err := c.Fetch(ctx, ids...); err != nil {
					t.Fatal(err)
				}
			}
			if n := testing.AllocsPerRun(200, owned); n != 1 {
				t.Errorf("%v allocations per Fetch, want 1 (the copy)", n)
			}
		})
	}
}

// TestConformanceMMVInstanceLabels: the instance labels of a metric of an
// MMV file that nothing has fetched yet, which pmcd 6.0.3 crashed on when
// asked for them first (its mmv PMDA runs inside it): MetricLabels
// returns pminfo -l's instance labels and pmcd still answers.
func TestConformanceMMVInstanceLabels(t *testing.T) {
	name := "perfwire_pmapi_labels_" + strconv.Itoa(os.Getpid())
	w, err := mmvfile.Create(name, &mmv.Registry{
		Cluster: 331,
		Indoms:  []mmv.IndomDef{{Serial: 1, Instances: []mmv.InstanceDef{{ID: 0, Name: "GET"}, {ID: 1, Name: "POST"}}}},
		Metrics: []mmv.MetricDef{{Name: "requests", Item: 1, Type: mmv.TypeU64, Sem: pcp.SemCounter, Units: pcp.NewUnits(0, 0, 1, 0, 0, 0), Indom: 1}},
	})
	if err != nil {
		t.Fatalf("mmv file in %s: %v", mmvfile.Dir(), err)
	}
	t.Cleanup(func() { w.Close(); os.Remove(w.Path()) })
	metric := "mmv." + name + ".requests"
	ctx := context.Background()
	c := dial(t)
	var ids []pcp.ID
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if ids, err = c.LookupName(ctx, metric); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("pmcd never served %s: %v", metric, err)
		}
	}
	d, err := c.LookupDesc(ctx, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	ml, err := c.MetricLabels(ctx, d)
	if err != nil {
		t.Fatalf("MetricLabels(%s): %v", metric, err)
	}
	if _, err := dial(t).Fetch(ctx, d.ID); err != nil {
		t.Fatalf("pmcd after the instance labels: %v", err)
	}
	want := regexp.MustCompile(`inst \[(\d+) or "[^"]*"\] labels (\{.*\})`).FindAllStringSubmatch(pminfo(t, "-l", metric), -1)
	if len(want) != 2 || len(ml.Instances) != 2 {
		t.Fatalf("%d instance label sets, pminfo -l %d", len(ml.Instances), len(want))
	}
	for _, m := range want {
		inst, _ := strconv.Atoi(m[1])
		if got := string(ml.Instances[int32(inst)].JSON); got != m[2] {
			t.Errorf("inst %d: labels %s, pminfo %s", inst, got, m[2])
		}
	}
}
