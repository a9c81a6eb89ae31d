package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/pcp"
)

const mmvData = "../../mmv/testdata/"

// TestMMVDump checks --dump against the real mmvdump output for every
// bundled file (mmvdump prints the path it was given on line 1).
func TestMMVDump(t *testing.T) {
	files, _ := filepath.Glob(mmvData + "*/*.mmv")
	if len(files) == 0 {
		t.Fatal("no MMV test files")
	}
	for _, f := range files {
		var out, errb bytes.Buffer
		if rc := run([]string{"mmv", "--dump", f}, &out, &errb); rc != 0 {
			t.Fatalf("%s: exit %d: %s", f, rc, errb.String())
		}
		want := readTestFile(t, strings.TrimSuffix(f, ".mmv")+".mmvdump.txt")
		w := strings.Replace(string(want), "= "+filepath.Base(f)+"\n", "= "+f+"\n", 1)
		if out.String() != w {
			t.Errorf("%s: dump differs from mmvdump:\n%s", f, out.String())
		}
	}
}

// TestMMVJSON checks the JSON view of speed's test2 (an indom with
// hash-derived instance ids) and test5 (noprefix, doubles) against
// what mmvdump printed for them.
func TestMMVJSON(t *testing.T) {
	var out, errb bytes.Buffer
	if rc := run([]string{"mmv", mmvData + "speed/test2.mmv", mmvData + "speed/test5.mmv"}, &out, &errb); rc != 0 {
		t.Fatalf("exit %d: %s", rc, errb.String())
	}
	dec := json.NewDecoder(&out)
	var f2, f5 servedMMV
	if err := dec.Decode(&f2); err != nil {
		t.Fatal(err)
	}
	if err := dec.Decode(&f5); err != nil {
		t.Fatal(err)
	}
	// mmvdump: Generated = 1469335238, Flags = 0x2 (process).
	if f2.Version != 1 || f2.Gen != 1469335238 || f2.Cluster != 1297 || f2.Process != 6410 || f2.Flags != 2 ||
		f2.FlagNames != "process" || len(f2.Metrics) != 1 {
		t.Fatalf("test2 header: %+v", f2)
	}
	m := f2.Metrics[0]
	// mmvdump's "64-bit unsigned int" is PM_TYPE_U64, the schema's "u64".
	if m.Name != "mmv.test2.mmv.language.users" || m.PMID != "70.1297.1021" || m.Type != "u64" ||
		m.Sem != "counter" || m.Units != "count" || m.InDom != "70.3127419" || len(m.Values) != 3 {
		t.Errorf("test2 metric: %+v", m)
	}
	want := map[string]float64{"go": 8388608, "javascript": 330, "php": 33}
	ids := map[string]int32{"go": 1109423947, "javascript": -2122300086, "php": 1531230383}
	for _, v := range m.Values {
		if v.Instance == nil || v.Value.(float64) != want[*v.Instance] || *v.Inst != ids[*v.Instance] {
			t.Errorf("test2 value %+v", v)
		}
	}
	if f5.Flags != 7 || f5.FlagNames != "noprefix,process,sentinel" || f5.Metrics[0].Name != "mmv.download_speed" ||
		f5.Metrics[0].Units != "Mbyte / sec" || f5.Metrics[0].ShortText != "Download speed in MiB/sec" {
		t.Errorf("test5: %+v", f5.Metrics[0])
	}
	if got := f5.Metrics[2].Values[0].Value.(float64); got != -6 {
		t.Errorf("test5 time = %v, want -6", got)
	}
	// test5 asked for cluster 0 and test2 uses 1297: pmdammv gives test5 cluster 1.
	if f5.Metrics[0].PMID != "70.1.150" {
		t.Errorf("test5 pmid %s", f5.Metrics[0].PMID)
	}
}

// servedMMV is the part of abi.MMVServed (a JSON line of perfwire mmv)
// the tests read.
type servedMMV struct {
	Version   int32  `json:"version"`
	Gen       uint64 `json:"gen"`
	Flags     uint32 `json:"flags"`
	FlagNames string `json:"flag_names"`
	Process   int32  `json:"process"`
	Cluster   int32  `json:"cluster"`
	Metrics   []struct {
		Name      string `json:"name"`
		PMID      string `json:"pmid"`
		Type      string `json:"type"`
		InDom     string `json:"indom"`
		Sem       string `json:"sem"`
		Units     string `json:"units"`
		ShortText string `json:"shorttext"`
		Values    []struct {
			Inst     *int32  `json:"inst"`
			Instance *string `json:"instance"`
			Value    any     `json:"value"`
		} `json:"values"`
	} `json:"metrics"`
}

func TestMMVErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.mmv")
	b, _ := os.ReadFile(mmvData + "speed/test1.mmv")
	b[16]++ // g2 != g1
	os.WriteFile(bad, b, 0o644)
	var out, errb bytes.Buffer
	if rc := run([]string{"mmv", bad}, &out, &errb); rc != 1 || !strings.Contains(errb.String(), "at offset 16") {
		t.Errorf("corrupt file: exit %d, %q", rc, errb.String())
	}
	if rc := run([]string{"mmv"}, &out, &errb); rc != 2 {
		t.Errorf("no file: exit %d", rc)
	}
	if rc := run([]string{"mmv", "--order", "middle", bad}, &out, &errb); rc != 2 {
		t.Errorf("bad order: exit %d", rc)
	}
}

// TestMMVDirectory scans a directory like pmdammv: sorted names, dot
// files ignored, unusable files reported with the reason.
func TestMMVDirectory(t *testing.T) {
	dir := t.TempDir()
	b := readTestFile(t, mmvData+"lab/sample1.mmv")
	os.WriteFile(filepath.Join(dir, "b"), b, 0o644)
	// A PROCESS file whose writer pid cannot exist (above pid_max).
	dead := &mmv.Registry{Flags: mmv.FlagProcess, Process: 0x7ffffff0, Cluster: 5, Gen: 1,
		Metrics: []mmv.MetricDef{{Name: "x", Item: 1, Type: mmv.TypeU32, Sem: pcp.SemCounter}}}
	p, err := dead.Plan()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a"), p.AppendFile(nil, nil), 0o644)
	os.WriteFile(filepath.Join(dir, ".hidden"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(dir, "c"), []byte("junk"), 0o644)
	var out, errb bytes.Buffer
	if rc := run([]string{"mmv", dir}, &out, &errb); rc != 0 {
		t.Fatalf("exit %d: %s", rc, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 3 objects, got:\n%s", out.String())
	}
	// pmdammv skips the dead writer's file too.
	for i, want := range [][]string{{`{"file":"` + dir + `/a","error":{`, `"message":"mmvfile: writer process is gone"`},
		{`{"file":"` + dir + `/c","error":{`, `"message":"mmv: header: truncated at offset 4"`}, {`"name":"mmv.b.i32"`}} {
		for _, w := range want {
			if !strings.Contains(lines[i], w) {
				t.Errorf("line %d: %s\nwant %s", i, lines[i], w)
			}
		}
	}
}
