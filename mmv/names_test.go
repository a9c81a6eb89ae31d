package mmv_test

import (
	"errors"
	"testing"

	"github.com/perfwire/perfwire/mmv"
)

// TestInDomID checks the spec's measured vectors (PCP 6.0.3, qa/1422,
// qa/1552).
func TestInDomID(t *testing.T) {
	for _, c := range []struct {
		cluster, serial uint32
		want            string
	}{{2986, 491372, "70.2064236"}, {1234, 1, "70.2527233"}} {
		if got := mmv.InDomID(c.cluster, c.serial).String(); got != c.want {
			t.Errorf("InDomID(%d, %d) = %s, want %s", c.cluster, c.serial, got, c.want)
		}
	}
	if got := mmv.PMID(321, 1).String(); got != "70.321.1" {
		t.Errorf("PMID = %s", got)
	}
}

func TestMetricNames(t *testing.T) {
	b := readFile(t, "testdata/speed/test5.mmv") // flags noprefix
	r, err := mmv.Parse(b, mmv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(r.AppendMetricName(nil, mmv.PrefixMMV, "test5", r.Metric(0))); got != "mmv.download_speed" {
		t.Errorf("noprefix name %q", got)
	}
	b = readFile(t, "testdata/speed/test1.mmv")
	r, err = mmv.Parse(b, mmv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(r.AppendMetricName(nil, mmv.PrefixMMV, "test1", r.Metric(0))); got != "mmv.test1.simple.counter" {
		t.Errorf("name %q", got)
	}
	for name, ok := range map[string]bool{"mmv.a.b_c9": true, "mmv.my-app.x": false, "9mmv": false, "": false, "mmv.a b": false} {
		if mmv.ValidMetricName([]byte(name)) != ok {
			t.Errorf("ValidMetricName(%q) != %v", name, ok)
		}
	}
}

// TestAssign covers cluster choice and the warnings for what pmdammv
// silently mishandles.
func TestAssign(t *testing.T) {
	open := func(reg *mmv.Registry) *mmv.File {
		p, err := reg.Plan()
		if err != nil {
			t.Fatal(err)
		}
		r, err := mmv.Parse(p.AppendFile(nil, nil), mmv.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return &r
	}
	a := sampleRegistry(3, false) // cluster 321, cluster labels
	b := sampleRegistry(1, false)
	b.Cluster = 0
	c := sampleRegistry(3, false)
	c.Cluster = 0 // loses its cluster labels
	d := sampleRegistry(1, false)
	d.Cluster = 321 // shares a's cluster
	e := sampleRegistry(1, false)
	e.Cluster = 1 + 1<<11 // indom 7 of cluster 2049 wraps onto cluster 1's
	files := []*mmv.File{open(a), open(b), open(c), open(d), open(e)}
	names := []string{"a", "b", "c", "d", "bad-name"}
	srcs := make([]mmv.Source, len(files))
	for i := range files {
		srcs[i] = mmv.Source{Name: names[i], File: files[i]}
	}
	clusters, warnings := mmv.Assign(srcs)
	if want := []uint32{321, 1, 2, 321, 2049}; !equal(clusters, want) {
		t.Errorf("clusters %v, want %v", clusters, want)
	}
	want := map[mmv.WarningKind]int{mmv.WarnClusterLabelsLost: 2, mmv.WarnSharedCluster: 3, mmv.WarnBadName: 4, mmv.WarnInDomCollision: 4}
	got := map[mmv.WarningKind]int{}
	for _, w := range warnings {
		if _, ok := got[w.Kind]; !ok {
			got[w.Kind] = w.File
		}
	}
	for k, f := range want {
		if g, ok := got[k]; !ok || g != f {
			t.Errorf("warning %d: file %d (present %v), want file %d", k, g, ok, f)
		}
	}
}

func equal(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRepeatedItems reads a file with two metrics on item 1 (like
// qa/src/mmv2_simple.c): an error by default, accepted with
// Options.RepeatedItems, and then reported by Assign.
func TestRepeatedItems(t *testing.T) {
	b := append([]byte(nil), readFile(t, "testdata/lab/sample2.mmv")...)
	off, _, _ := tocEntry(t, b, mmv.SectionMetrics)
	le.PutUint32(b[off+mmv.MetricSizeV2+8:], 1) // metric 1 takes metric 0's item
	if _, err := mmv.Parse(b, mmv.Options{}); !errors.Is(err, mmv.ErrItem) {
		t.Fatalf("default: %v", err)
	}
	r, err := mmv.Parse(b, mmv.Options{RepeatedItems: true})
	if err != nil {
		t.Fatal(err)
	}
	_, warnings := mmv.Assign([]mmv.Source{{Name: "x", File: &r}})
	if len(warnings) != 1 || warnings[0].Kind != mmv.WarnRepeatedItem || warnings[0].Metric != 1 {
		t.Errorf("warnings %+v", warnings)
	}
}
