//go:build conformance

package mmv_test

import (
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/pcp"
)

const (
	mmvdumpPath = "/var/lib/pcp/pmdas/mmv/mmvdump"
	pmdaPath    = "/var/lib/pcp/pmdas/mmv/pmda_mmv.so"
)

// tool fails the test loudly when a PCP tool is missing.
func tool(t *testing.T, path string) string {
	t.Helper()
	p, err := exec.LookPath(path)
	if err != nil {
		t.Fatalf("PCP tool %s is required for conformance tests: %v", path, err)
	}
	return p
}

// randomRegistry builds a registry exercising every type, random units,
// help, instances with negative ids, flags and, for version 3, labels at
// every level. file numbers the metric names so NOPREFIX files never
// collide, and picks a distinct cluster.
func randomRegistry(rng *rand.Rand, file int, version int32) *mmv.Registry {
	reg := &mmv.Registry{Version: version, Cluster: uint32(100 + file), Gen: rng.Uint64() | 1,
		Process: rng.Int31(), Flags: mmv.Flags(rng.Intn(8)) &^ mmv.FlagProcess}
	for d := range rng.Intn(3) {
		def := mmv.IndomDef{Serial: uint32(d + 1 + rng.Intn(100)*3)}
		if rng.Intn(2) == 0 {
			def.ShortText, def.HelpText = "indom short "+strconv.Itoa(d), "indom help "+strconv.Itoa(d)
		}
		for k := range 1 + rng.Intn(4) {
			def.Instances = append(def.Instances, mmv.InstanceDef{ID: int32(k) - rng.Int31n(1000)*4,
				Name: "inst_" + strconv.Itoa(file) + "_" + strconv.Itoa(k)})
		}
		reg.Indoms = append(reg.Indoms, def)
	}
	types := []mmv.Type{mmv.TypeI32, mmv.TypeU32, mmv.TypeI64, mmv.TypeU64, mmv.TypeFloat, mmv.TypeDouble, mmv.TypeString, mmv.TypeElapsed}
	sems := []pcp.Sem{pcp.SemCounter, pcp.SemInstant, pcp.SemDiscrete}
	for i, typ := range types {
		m := mmv.MetricDef{Name: "f" + strconv.Itoa(file) + ".m" + strconv.Itoa(i), Item: uint32(rng.Intn(64)*16 + i),
			Type: typ, Sem: sems[rng.Intn(3)],
			Units: pcp.NewUnits(rng.Intn(5)-2, rng.Intn(5)-2, rng.Intn(5)-2, uint(rng.Intn(9)), uint(rng.Intn(6)), rng.Intn(15)-7)}
		if version > 1 && i == 0 {
			m.Name += ".with_a_name_long_enough_to_need_the_strings_section_of_v2"
		}
		if rng.Intn(2) == 0 {
			m.ShortText = "short text of " + m.Name
		}
		if rng.Intn(2) == 0 {
			m.HelpText = "longer help text of " + m.Name
		}
		if len(reg.Indoms) > 0 && rng.Intn(2) == 0 {
			m.Indom = reg.Indoms[rng.Intn(len(reg.Indoms))].Serial
		}
		reg.Metrics = append(reg.Metrics, m)
	}
	if version == 3 {
		reg.Labels = append(reg.Labels,
			mmv.LabelDef{Flags: mmv.LabelCluster, Identity: reg.Cluster, Name: "cl" + strconv.Itoa(file), Value: `"c"`},
			mmv.LabelDef{Flags: mmv.LabelItem | mmv.LabelOptional, Identity: reg.Metrics[1].Item, Name: "it" + strconv.Itoa(file), Value: `[1,2]`})
		if len(reg.Indoms) > 0 {
			d := reg.Indoms[0]
			reg.Labels = append(reg.Labels,
				mmv.LabelDef{Flags: mmv.LabelInDom, Identity: d.Serial, Name: "in" + strconv.Itoa(file), Value: `12`},
				mmv.LabelDef{Flags: mmv.LabelInstances, Identity: d.Serial, Internal: d.Instances[0].ID, Name: "is" + strconv.Itoa(file), Value: `true`})
		}
	}
	return reg
}

// fillRandom stores random values in every slot (no open ELAPSED
// interval, whose value depends on the time).
func fillRandom(t *testing.T, rng *rand.Rand, p *mmv.Plan, reg *mmv.Registry, b []byte) {
	for i, m := range reg.Metrics {
		n := 1
		for _, d := range reg.Indoms {
			if d.Serial == m.Indom {
				n = len(d.Instances)
			}
		}
		for k := range n {
			s, err := p.Slot(b, nil, i, k)
			if err != nil {
				t.Fatal(err)
			}
			switch m.Type {
			case mmv.TypeString:
				if err := s.SetString("text " + strconv.Itoa(rng.Intn(1000))); err != nil {
					t.Fatal(err)
				}
			case mmv.TypeFloat, mmv.TypeDouble:
				s.SetFloat(float64(rng.Intn(1<<20)-1<<19) / 8)
			default:
				s.SetUint(rng.Uint64())
			}
		}
	}
}

// writeRandomFiles writes n random files into dir and returns their names.
func writeRandomFiles(t *testing.T, dir string, n int) []string {
	rng := rand.New(rand.NewSource(7))
	var names []string
	for i := range n {
		reg := randomRegistry(rng, i, int32(1+i%3))
		p, err := reg.Plan()
		if err != nil {
			t.Fatal(err)
		}
		b := p.AppendFile(nil, nil)
		fillRandom(t, rng, p, reg, b)
		name := "perfwire" + strconv.Itoa(i)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	return names
}

// TestConformanceMmvdump writes files with our writer and checks that
// PCP's mmvdump accepts each one (exit 0) and prints exactly what our
// reader's dump says; it also re-dumps the bundled real files.
func TestConformanceMmvdump(t *testing.T) {
	dump := tool(t, mmvdumpPath)
	dir := t.TempDir()
	names := writeRandomFiles(t, dir, 30)
	for _, f := range realFiles(t) {
		abs, _ := filepath.Abs(f)
		names = append(names, abs)
	}
	for _, name := range names {
		path := name
		if !filepath.IsAbs(name) {
			path = filepath.Join(dir, name)
		}
		out, err := exec.Command(dump, path).Output()
		if err != nil {
			t.Errorf("%s: mmvdump failed: %v\n%s", name, err, out)
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := mmv.Parse(b, mmv.Options{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := string(mmv.AppendDump(nil, &r, path, 0)); got != string(out) {
			t.Errorf("%s: %s", name, diff(string(out), got))
		}
	}
}

// pmMetric is one metric as pminfo -dfmtTl printed it.
type pmMetric struct {
	pmid, typ, indom, sem, units, labels, short, help string
	values, instLabels                                map[string]string // by "[id or "name"]", "" when singular
}

// parsePminfo reads the blocks `pminfo -dfmtTlI` prints.
func parsePminfo(t *testing.T, out string) map[string]*pmMetric {
	res := map[string]*pmMetric{}
	var cur *pmMetric
	inHelp := false
	for _, line := range strings.Split(out, "\n") {
		switch {
		case line == "":
			cur, inHelp = nil, false
		case cur == nil:
			name, rest, _ := strings.Cut(line, " PMID: ")
			pmid, help, _ := strings.Cut(rest, " ")
			cur = &pmMetric{pmid: pmid, values: map[string]string{}, instLabels: map[string]string{}}
			if strings.HasPrefix(help, "[") {
				cur.short = strings.TrimSuffix(strings.TrimPrefix(help, "["), "]")
			}
			res[name] = cur
		case strings.HasPrefix(line, "    Data Type: "):
			typ, indom, _ := strings.Cut(strings.TrimPrefix(line, "    Data Type: "), "  InDom: ")
			cur.typ = typ
			cur.indom, _, _ = strings.Cut(indom, " ")
		case strings.HasPrefix(line, "    Semantics: "):
			cur.sem, cur.units, _ = strings.Cut(strings.TrimPrefix(line, "    Semantics: "), "  Units: ")
		case strings.HasPrefix(line, "    labels "):
			cur.labels = strings.TrimPrefix(line, "    labels ")
		case line == "Help:":
			inHelp = true
		case strings.HasPrefix(line, "Full Help: "):
		case strings.HasPrefix(line, "    value "):
			cur.values[""] = strings.TrimPrefix(line, "    value ")
			inHelp = false
		case strings.HasPrefix(line, "    inst ["):
			inst, rest, _ := strings.Cut(strings.TrimPrefix(line, "    inst "), "] ")
			inst += "]"
			if v, ok := strings.CutPrefix(rest, "value "); ok {
				cur.values[inst] = v
			} else {
				cur.instLabels[inst] = strings.TrimPrefix(rest, "labels ")
			}
			inHelp = false
		case inHelp:
			cur.help += line
		default:
			t.Fatalf("unexpected pminfo line %q", line)
		}
	}
	return res
}

// pminfoSem and pminfoType are the texts pminfo prints.
var pminfoSem = map[pcp.Sem]string{pcp.SemCounter: "counter", pcp.SemInstant: "instant", pcp.SemDiscrete: "discrete"}

// TestConformancePmdammv loads files written by our writer into the real
// pmdammv (the DSO, through pminfo -L, with PCP_TMP_DIR pointing at a
// private directory) and checks names, pmIDs, descriptors, units, help,
// instances, values and labels against what our reader says.
func TestConformancePmdammv(t *testing.T) {
	pminfo := tool(t, "pminfo")
	if _, err := os.Stat(pmdaPath); err != nil {
		t.Fatalf("pmda_mmv DSO is required: %v", err)
	}
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "mmv")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	names := writeRandomFiles(t, dir, 12)
	cmd := exec.Command(pminfo, "-L", "-Kclear", "-Kadd,70,"+pmdaPath+",mmv_init", "-dfmtTlI", "mmv")
	cmd.Env = append(os.Environ(), "PCP_TMP_DIR="+tmp)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pminfo: %v\n%s", err, out)
	}
	got := parsePminfo(t, string(out))
	seen := 0
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		r, err := mmv.Parse(b, mmv.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cluster := uint32(r.Header().Cluster)
		for m := range r.Metrics() {
			full := string(r.AppendMetricName(nil, mmv.PrefixMMV, name, m))
			pm, ok := got[full]
			if !ok {
				t.Errorf("%s: not exported by pmdammv", full)
				continue
			}
			seen++
			check := func(what, got, want string) {
				if got != want {
					t.Errorf("%s %s: pmdammv %q, reader %q", full, what, got, want)
				}
			}
			check("pmid", pm.pmid, mmv.PMID(cluster, m.Item).String())
			typ, sem, units := m.Type.PCP(), m.Sem, m.Units.String()
			if m.Type == mmv.TypeElapsed {
				sem, units = pcp.SemCounter, "microsec"
			}
			if units == "" {
				units = "none"
			}
			check("type", pm.typ, mmv.Type(typ).String())
			check("semantics", pm.sem, pminfoSem[sem])
			check("units", pm.units, units)
			indom := "PM_INDOM_NULL"
			if !m.Singular() {
				indom = mmv.InDomID(cluster, m.Indom).String()
			}
			check("indom", pm.indom, indom)
			check("shorttext", pm.short, string(m.ShortText))
			if m.HelpText != nil {
				check("helptext", pm.help, string(m.HelpText))
			}
			for l := range r.Labels() {
				name := strings.SplitN(string(l.Payload[2:]), `"`, 2)[0]
				applies := false
				switch l.Flags.Level() {
				case mmv.LabelCluster:
					applies = l.Identity == cluster
				case mmv.LabelItem:
					applies = l.Identity == m.Item
				case mmv.LabelInDom:
					applies = !m.Singular() && l.Identity == m.Indom
				}
				if applies && !strings.Contains(pm.labels, `"`+name+`"`) {
					t.Errorf("%s: label %s missing from %s", full, name, pm.labels)
				}
				if l.Flags.Level() == mmv.LabelInstances && !m.Singular() && l.Identity == m.Indom {
					found := false
					for inst, ls := range pm.instLabels {
						if strings.HasPrefix(inst, "["+strconv.Itoa(int(l.Internal))+" or ") {
							found = strings.Contains(ls, `"`+name+`"`)
						}
					}
					if !found {
						t.Errorf("%s: instance label %s missing", full, name)
					}
				}
			}
		}
		for v := range r.Values() {
			m := r.Metric(v.Metric)
			full := string(r.AppendMetricName(nil, mmv.PrefixMMV, name, m))
			pm := got[full]
			if pm == nil {
				continue
			}
			key := ""
			if v.Instance >= 0 {
				in := r.Instance(v.Instance)
				key = "[" + strconv.Itoa(int(in.ID)) + ` or "` + string(in.Name) + `"]`
			}
			text, ok := pm.values[key]
			if !ok {
				t.Errorf("%s%s: no value from pmdammv", full, key)
				continue
			}
			var want bool
			switch v.Type {
			case mmv.TypeString:
				want = text == strconv.Quote(string(v.Text()))
			case mmv.TypeFloat, mmv.TypeDouble:
				f, err := strconv.ParseFloat(text, 64)
				want = err == nil && math.Abs(f-v.Float()) <= 1e-6*math.Abs(v.Float())
			case mmv.TypeU32, mmv.TypeU64:
				want = text == strconv.FormatUint(v.Uint(), 10)
			default:
				want = text == strconv.FormatInt(v.Int(), 10)
			}
			if !want {
				t.Errorf("%s%s: pmdammv %s, reader raw %#x", full, key, text, v.Raw())
			}
		}
	}
	if seen == 0 {
		t.Fatalf("pmdammv exported none of our metrics:\n%s", out)
	}
}

// TestConformanceAssign checks Assign's predictions against the real
// pmdammv: automatic clusters for files that ask for cluster 0, and a
// file name with '-' losing every metric.
func TestConformanceAssign(t *testing.T) {
	pminfo := tool(t, "pminfo")
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "mmv")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	clusters := map[string]uint32{"a": 0, "b": 1, "c": 0, "d": 3, "e": 0, "bad-name": 40}
	names := []string{"a", "b", "bad-name", "c", "d", "e"} // pmdammv's sorted order
	var srcs []mmv.Source
	for i, name := range names {
		reg := &mmv.Registry{Cluster: clusters[name], Gen: 1, Flags: 0, Metrics: []mmv.MetricDef{{
			Name: "metric" + strconv.Itoa(i), Item: uint32(10 + i), Type: mmv.TypeU32, Sem: pcp.SemInstant}}}
		p, err := reg.Plan()
		if err != nil {
			t.Fatal(err)
		}
		b := p.AppendFile(nil, nil)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := mmv.Parse(b, mmv.Options{})
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, mmv.Source{Name: name, File: &r})
	}
	predicted, warnings := mmv.Assign(srcs)
	t.Logf("predicted clusters %v", predicted)
	cmd := exec.Command(pminfo, "-L", "-Kclear", "-Kadd,70,"+pmdaPath+",mmv_init", "-m", "mmv")
	cmd.Env = append(os.Environ(), "PCP_TMP_DIR="+tmp)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pminfo: %v\n%s", err, out)
	}
	for i, s := range srcs {
		m := s.File.Metric(0)
		name := string(s.File.AppendMetricName(nil, mmv.PrefixMMV, s.Name, m))
		line := name + " PMID: " + mmv.PMID(predicted[i], m.Item).String() + "\n"
		bad := false
		for _, w := range warnings {
			bad = bad || w.File == i && w.Kind == mmv.WarnBadName
		}
		if bad {
			if strings.Contains(string(out), name) {
				t.Errorf("%s exported although Assign said its name is invalid", name)
			}
			continue
		}
		if !strings.Contains(string(out), line) {
			t.Errorf("want %q in pminfo output:\n%s", line, out)
		}
	}
}

// TestConformanceElapsedSentinel checks two value rules against the real
// pmdammv: an open ELAPSED interval adds the time since its start, and in
// a SENTINEL file an all-ones integer means "no value".
func TestConformanceElapsedSentinel(t *testing.T) {
	pminfo := tool(t, "pminfo")
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "mmv")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	reg := &mmv.Registry{Cluster: 55, Gen: 1, Flags: mmv.FlagSentinel, Metrics: []mmv.MetricDef{
		{Name: "busy", Item: 1, Type: mmv.TypeElapsed, Sem: pcp.SemCounter},
		{Name: "gone", Item: 2, Type: mmv.TypeI64, Sem: pcp.SemInstant},
		{Name: "here", Item: 3, Type: mmv.TypeI64, Sem: pcp.SemInstant},
	}}
	p, err := reg.Plan()
	if err != nil {
		t.Fatal(err)
	}
	b := p.AppendFile(nil, nil)
	busy, _ := p.Slot(b, nil, 0, 0)
	gone, _ := p.Slot(b, nil, 1, 0)
	here, _ := p.Slot(b, nil, 2, 0)
	start := time.Now().UnixMicro() - 2_000_000
	busy.SetInt(1000)
	busy.Start(start)
	gone.Clear()
	here.SetInt(-7)
	if err := os.WriteFile(filepath.Join(dir, "sent"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	before := time.Now().UnixMicro()
	cmd := exec.Command(pminfo, "-L", "-Kclear", "-Kadd,70,"+pmdaPath+",mmv_init", "-f", "mmv.sent")
	cmd.Env = append(os.Environ(), "PCP_TMP_DIR="+tmp)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pminfo: %v\n%s", err, out)
	}
	after := time.Now().UnixMicro()
	got := parsePminfoValues(string(out))
	r, _ := mmv.Parse(b, mmv.Options{})
	lo, hi := r.Value(0).Elapsed(before), r.Value(0).Elapsed(after)
	v, err := strconv.ParseInt(got["mmv.sent.busy"], 10, 64)
	if err != nil || v < lo || v > hi {
		t.Errorf("busy = %q, want %d…%d\n%s", got["mmv.sent.busy"], lo, hi, out)
	}
	if got["mmv.sent.here"] != "-7" {
		t.Errorf("here = %q", got["mmv.sent.here"])
	}
	if !r.Value(1).Missing() || !strings.Contains(got["mmv.sent.gone"], "No value") {
		t.Errorf("gone = %q, reader missing %v", got["mmv.sent.gone"], r.Value(1).Missing())
	}
}

// parsePminfoValues reads `pminfo -f` output for singular metrics.
func parsePminfoValues(out string) map[string]string {
	res := map[string]string{}
	name := ""
	for _, line := range strings.Split(out, "\n") {
		switch {
		case line == "":
		case strings.HasPrefix(line, "No value"):
			res[name] = line
		case !strings.HasPrefix(line, " "):
			name = line
		default:
			res[name] = strings.TrimPrefix(strings.TrimSpace(line), "value ")
		}
	}
	return res
}
