//go:build conformance

package main

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// pcpTypes maps pminfo's type names to the schema's (wasm/abi TypeName).
var pcpTypes = map[string]string{
	"32-bit int": "32", "32-bit unsigned int": "u32", "64-bit int": "64", "64-bit unsigned int": "u64",
	"float": "float", "double": "double", "string": "string", "aggregate": "aggregate",
}

// pmJSON runs perfwire pm --json and decodes each line into a new T.
func pmJSON[T any](t *testing.T, args ...string) []T {
	t.Helper()
	var out strings.Builder
	var errb strings.Builder
	if code := run(append([]string{"pm", "-h", "127.0.0.1", "--json"}, args...), &out, &errb); code != 0 {
		t.Fatalf("pm --json %q: exit %d: %s", args, code, errb.String())
	}
	var res []T
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var v T
		dec := json.NewDecoder(strings.NewReader(l))
		dec.UseNumber() // numbers as printed, to compare with pminfo's text
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("pm --json %q: %q: %v", args, l, err)
		}
		res = append(res, v)
	}
	return res
}

// perfwire pm --json prints the shared schema: desc, fetch, text, labels
// and names say what pminfo -dm, -f, -tT, -l and plain pminfo say.
func TestConformancePmJSON(t *testing.T) {
	metrics := []string{"sample.long.one", "sample.bin", "sample.double.ten", "sample.float.ten",
		"sample.ulonglong.million", "sample.string.hullo", "sample.longlong.hundred"}

	descRE := regexp.MustCompile(`(?m)^(\S+) PMID: (\S+)\n    Data Type: (.+?)  InDom: (\S+) 0x[0-9a-f]+\n    Semantics: (\S+)  Units: (.*)$`)
	want := map[string][]string{}
	for _, m := range descRE.FindAllStringSubmatch(pmOracle(t, "pminfo", append([]string{"-dm"}, metrics...)...), -1) {
		units := m[6]
		if units == "none" {
			units = ""
		}
		want[m[1]] = []string{m[2], pcpTypes[m[3]], m[4], m[5], units}
	}
	descs := pmJSON[struct{ Name, PMID, Type, InDom, Sem, Units string }](t, append([]string{"desc"}, metrics...)...)
	if len(descs) != len(metrics) || len(want) != len(metrics) {
		t.Fatalf("%d descs, pminfo -dm %d, for %d metrics", len(descs), len(want), len(metrics))
	}
	for _, d := range descs {
		if w := want[d.Name]; w == nil || d.PMID != w[0] || d.Type != w[1] || d.InDom != w[2] || d.Sem != w[3] || d.Units != w[4] {
			t.Errorf("desc %+v, pminfo -dm %q", d, w)
		}
	}

	// Values: the constant metrics, as pminfo -f prints them.
	valueRE := regexp.MustCompile(`(?m)^(\S+)\n((?:    .*\n?)+)`)
	instRE := regexp.MustCompile(`    (?:inst \[(-?\d+) or "[^"]*"\] )?value (.*)`)
	wantValues := map[string]map[int64]string{}
	for _, m := range valueRE.FindAllStringSubmatch(pmOracle(t, "pminfo", append([]string{"-f"}, metrics...)...), -1) {
		vals := map[int64]string{}
		for _, v := range instRE.FindAllStringSubmatch(m[2], -1) {
			inst := int64(-1)
			if v[1] != "" {
				inst, _ = strconv.ParseInt(v[1], 10, 64)
			}
			vals[inst] = v[2]
		}
		wantValues[m[1]] = vals
	}
	type value struct {
		Inst  int64
		Value any
	}
	fetched := pmJSON[struct {
		Name, PMID, Type string
		Values           []value
	}](t, append([]string{"fetch"}, metrics...)...)
	if len(fetched) != len(metrics) {
		t.Fatalf("%d fetched, %d metrics", len(fetched), len(metrics))
	}
	for i, f := range fetched {
		w := wantValues[f.Name]
		if f.Name != metrics[i] || f.PMID != want[f.Name][0] || f.Type != want[f.Name][1] || len(f.Values) != len(w) || len(w) == 0 {
			t.Errorf("fetch %+v, pminfo -f %v", f, w)
			continue
		}
		for _, v := range f.Values {
			var text string
			switch x := v.Value.(type) {
			case string:
				text = strconv.Quote(x)
			case json.Number:
				text = string(x)
			}
			if text != w[v.Inst] {
				t.Errorf("%s[%d] = %v, pminfo -f %q", f.Name, v.Inst, v.Value, w[v.Inst])
			}
		}
	}

	// pm val samples: sample.bin is instant and constant, so each sample
	// has pminfo -f's values, with the instances' names.
	samples := pmJSON[struct {
		Timestamp, Metric string
		Values            []struct {
			Inst  int64
			Name  string
			Value json.Number
		}
	}](t, "val", "-s", "2", "-t", "0.05", "sample.bin")
	if len(samples) != 2 {
		t.Fatalf("%d pm val samples", len(samples))
	}
	for _, s := range samples {
		_, err := time.Parse(time.RFC3339Nano, s.Timestamp)
		if err != nil || s.Metric != "sample.bin" || len(s.Values) != len(wantValues["sample.bin"]) {
			t.Errorf("pm val sample %+v (%v)", s, err)
		}
		for _, v := range s.Values {
			if string(v.Value) != wantValues["sample.bin"][v.Inst] || v.Name != "bin-"+strconv.FormatInt(v.Inst, 10) {
				t.Errorf("pm val %+v, pminfo -f %q", v, wantValues["sample.bin"][v.Inst])
			}
		}
	}

	// Help texts, as pminfo -tT prints them.
	texts := pmJSON[struct{ Name, OneLine, Help string }](t, "text", "sample.long.one", "sample.bin")
	for _, x := range texts {
		if w := "\n" + x.Name + " [" + x.OneLine + "]\nHelp:\n" + x.Help + "\n"; w != pmOracle(t, "pminfo", "-tT", x.Name) {
			t.Errorf("text %+v, pminfo -tT %q", x, pmOracle(t, "pminfo", "-tT", x.Name))
		}
	}

	// Labels, the metric's and each instance's, as pminfo -l prints them.
	labels := pmJSON[struct {
		Name, JSON string
		Instances  []struct {
			Inst       int32
			Name, JSON string
		}
	}](t, "labels", "sample.bin", "sample.long.one")
	for _, l := range labels {
		w := "\n" + l.Name + "\n    labels " + l.JSON + "\n"
		for _, in := range l.Instances {
			w += "    inst [" + strconv.Itoa(int(in.Inst)) + " or " + strconv.Quote(in.Name) + "] labels " + in.JSON + "\n"
		}
		if got := pmOracle(t, "pminfo", "-l", l.Name); w != got || l.Name == "sample.bin" && len(l.Instances) != 9 {
			t.Errorf("labels %+v, pminfo -l %q", l, got)
		}
	}

	// Names, as pminfo lists them.
	var names []string
	for _, n := range pmJSON[struct{ Name string }](t, "names", "sample.long") {
		names = append(names, n.Name)
	}
	if w := strings.Fields(pmOracle(t, "pminfo", "sample.long")); strings.Join(names, " ") != strings.Join(w, " ") {
		t.Errorf("names %q, pminfo %q", names, w)
	}
}
