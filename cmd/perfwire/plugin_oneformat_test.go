package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/pcp"
)

// oneFormatModule builds, once per tag, the one-format wasip1 module of
// that build tag, which has only its format's calls.
func oneFormatModule(tag string) (string, error) {
	v, _ := oneFormatModules.LoadOrStore(tag, sync.OnceValues(func() (string, error) {
		file := filepath.Join(filepath.Dir(pluginWasm), "perfwire-"+tag+".wasm")
		cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-tags", tag, "-ldflags=-s -w", "-o", file, "../../wasm/plugin")
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
		if b, err := cmd.CombinedOutput(); err != nil {
			return "", errors.New("building the " + tag + " module: " + err.Error() + "\n" + string(b))
		}
		return file, nil
	}))
	return v.(func() (string, error))()
}

var oneFormatModules sync.Map

// sameThroughPlugin runs each case natively and with its decode inside
// module file (every tenth through the --plugin flag, the others through
// one shared instance) and fails when stdout, stderr or the exit status
// differ. It returns how many native runs ended with each status.
func sameThroughPlugin(t *testing.T, file string, cases [][]string) map[int]int {
	t.Helper()
	shared, err := loadPlugin(file)
	if err != nil {
		t.Fatal(err)
	}
	defer shared.close()
	codes := map[int]int{}
	for i, args := range cases {
		var nout, nerr, pout, perr bytes.Buffer
		ncode := run(args, &nout, &nerr)
		var pcode int
		if i%10 == 0 {
			pcode = run(append([]string{"--plugin", file}, args...), &pout, &perr)
		} else {
			plugin = shared
			pcode = run(args, &pout, &perr)
			plugin = nil
		}
		codes[ncode]++
		if ncode != pcode || !bytes.Equal(nout.Bytes(), pout.Bytes()) || nerr.String() != perr.String() {
			t.Errorf("%q: native exit %d, %d bytes, %q; plugin exit %d, %d bytes, %q",
				args, ncode, nout.Len(), nerr.String(), pcode, pout.Len(), perr.String())
		}
	}
	return codes
}

// TestMMVPluginByteIdentical: perfwire --plugin perfwire-mmv.wasm mmv
// prints exactly what the native run prints, on stdout and stderr, with
// the same exit status, for every bundled file, several at once, a
// directory with files pmdammv skips, --strict refusals, damaged and
// missing files and a wrong byte order.
func TestMMVPluginByteIdentical(t *testing.T) {
	file, err := oneFormatModule("mmv")
	if err != nil {
		t.Fatal(err)
	}
	// Elapsed values depend on the time they are read at: one time for
	// both runs.
	defer func(f func() int64) { mmvNow = f }(mmvNow)
	mmvNow = func() int64 { return 1764000000000000 }

	files, _ := filepath.Glob(mmvData + "*/*.mmv")
	files = append(files, mmvData+"qa/large-parfait")
	if len(files) != 9 {
		t.Fatalf("%d MMV test files", len(files))
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string { return writeTestFile(t, dir, name, b) }
	read := func(name string) []byte { return readTestFile(t, name) }
	// A directory as pmdammv sees one: files it serves, a dead writer's
	// file, junk, a hidden file.
	served := filepath.Join(dir, "mmvdir")
	os.Mkdir(served, 0o755)
	for _, f := range []string{"lab/sample1.mmv", "lab/sample3.mmv", "speed/test2.mmv", "speed/test5.mmv"} {
		os.WriteFile(filepath.Join(served, filepath.Base(f)), read(mmvData+f), 0o644)
	}
	dead := &mmv.Registry{Flags: mmv.FlagProcess, Process: 0x7ffffff0, Cluster: 5, Gen: 1,
		Metrics: []mmv.MetricDef{{Name: "x", Item: 1, Type: mmv.TypeU32, Sem: pcp.SemCounter}}}
	p, err := dead.Plan()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(served, "dead"), p.AppendFile(nil, nil), 0o644)
	os.WriteFile(filepath.Join(served, "junk"), []byte("junk"), 0o644)
	os.WriteFile(filepath.Join(served, ".hidden"), []byte("x"), 0o644)
	corrupt := read(mmvData + "speed/test1.mmv")
	corrupt[16]++ // g2 != g1
	bad := write("bad.mmv", corrupt)
	cut := write("cut.mmv", read(mmvData + "lab/sample2.mmv")[:200])
	missing := filepath.Join(dir, "missing.mmv")

	var cases [][]string
	for _, f := range files {
		cases = append(cases, []string{"mmv", f}, []string{"mmv", "--strict", f})
	}
	cases = append(cases, append([]string{"mmv"}, files...), append([]string{"mmv", "--strict"}, files...),
		[]string{"mmv", served}, []string{"mmv", served, files[0]}, []string{"mmv", "--strict", served},
		[]string{"mmv", bad}, []string{"mmv", cut}, []string{"mmv", files[0], bad, missing},
		[]string{"mmv", files[0], missing, bad}, []string{"mmv", missing}, []string{"mmv", "--order", "be", files[0]},
		[]string{"mmv", "--order", "native", files[1]}, []string{"mmv", filepath.Join(dir, "no-such-dir") + "/"})

	codes := sameThroughPlugin(t, file, cases)
	// Both successes and failures were compared.
	if codes[0] < 10 || codes[1] < 5 {
		t.Errorf("exit codes %v", codes)
	}
}

// TestMMVPluginRefuses: --dump is the host's formatter, not a call of the
// plugin; a module built without the MMV calls says so.
func TestMMVPluginRefuses(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--plugin", pluginWasm, "mmv", "--dump", mmvData + "lab/sample1.mmv"}, &out, &errb); code != 2 ||
		!strings.Contains(errb.String(), "--dump") {
		t.Errorf("--dump through the plugin: exit %d, %q", code, errb.String())
	}
	kpi, err := oneFormatModule("kpi")
	if err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	if code := run([]string{"--plugin", kpi, "mmv", mmvData + "lab/sample1.mmv"}, &out, &errb); code != 1 ||
		!strings.Contains(errb.String(), "call not in this module") {
		t.Errorf("the kpi module: exit %d, %q", code, errb.String())
	}
}

// TestDLTPluginByteIdentical: perfwire --plugin perfwire-dlt.wasm dlt
// prints exactly what the native run prints, as text and JSON, with each
// filter, on every capture and on cut, damaged and missing files.
func TestDLTPluginByteIdentical(t *testing.T) {
	file, err := oneFormatModule("dlt")
	if err != nil {
		t.Fatal(err)
	}
	dlts, _ := filepath.Glob("../../dlt/testdata/*.dlt")
	if len(dlts) != 3 {
		t.Fatalf("%d DLT captures", len(dlts))
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string { return writeTestFile(t, dir, name, b) }
	odd := readTestFile(t, "../../dlt/testdata/kpi-odd.dlt")
	damaged := bytes.Clone(odd)
	damaged[5000] ^= 0xff
	copy(damaged[90000:], "xxxxxxxxxx")
	header := bytes.Clone(odd)
	at := bytes.Index(header[len(header)/2:], []byte("DLT\x01")) + len(header)/2
	copy(header[at:], "XXXX")
	inputs := append(dlts, write("cut.dlt", odd[:7000]), write("damaged.dlt", damaged), write("header.dlt", header))
	var cases [][]string
	for _, f := range inputs {
		for _, mode := range [][]string{{"dlt"}, {"dlt", "--json"}, {"dlt", "--app", "PROC"}, {"dlt", "--json", "--ctx", "STAT"},
			{"dlt", "--level", "warn"}, {"dlt", "--type", "log", "--ecu", "ECU1"}, {"dlt", "--grep", "[0-9]{5}"},
			{"dlt", "--json", "--from", "2020-01-01T00:00:00Z", "--to", "2030-01-01T00:00:00Z"}} {
			cases = append(cases, append(mode, f))
		}
	}
	cases = append(cases, append([]string{"dlt"}, inputs...), []string{"dlt", dlts[0], filepath.Join(dir, "missing.dlt")},
		[]string{"dlt", "--json", filepath.Join(dir, "missing.dlt"), dlts[0]}, []string{"dlt", write("empty.dlt", nil)},
		[]string{"dlt", write("garbage.dlt", bytes.Repeat([]byte("DLT\x01 garbage "), 50))})
	codes := sameThroughPlugin(t, file, cases)
	if codes[0] < 40 || codes[1] < 2 {
		t.Errorf("exit codes %v", codes)
	}
}

// TestDLTPluginRefuses: --follow reads a daemon natively; a module built
// without dlt_decode says so.
func TestDLTPluginRefuses(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--plugin", pluginWasm, "dlt", "--follow", "localhost"}, &out, &errb); code != 2 ||
		!strings.Contains(errb.String(), "--follow") {
		t.Errorf("--follow through the plugin: exit %d, %q", code, errb.String())
	}
	kpi, err := oneFormatModule("kpi")
	if err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	if code := run([]string{"--plugin", kpi, "dlt", "../../dlt/testdata/kpi-odd.dlt"}, &out, &errb); code != 1 ||
		!strings.Contains(errb.String(), "call not in this module") {
		t.Errorf("the kpi module: exit %d, %q", code, errb.String())
	}
}

// throughModule runs tests with their decode inside the one-format module
// of tag (what --plugin perfwire-TAG.wasm does).
func throughModule(t *testing.T, tag string, tests map[string]func(*testing.T)) {
	file, err := oneFormatModule(tag)
	if err != nil {
		t.Fatal(err)
	}
	p, err := loadPlugin(file)
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	plugin = p
	defer func() { plugin = nil }()
	for name, f := range tests {
		t.Run(name, f)
	}
}

// TestThroughOneFormatPlugins runs the mmv and dlt tests again with their
// decode inside the mmv and dlt modules.
func TestThroughOneFormatPlugins(t *testing.T) {
	throughModule(t, "mmv", map[string]func(*testing.T){"MMVJSON": TestMMVJSON, "MMVErrors": TestMMVErrors, "MMVDirectory": TestMMVDirectory})
	throughModule(t, "dlt", map[string]func(*testing.T){"DLTUsage": TestDLTUsage})
}
