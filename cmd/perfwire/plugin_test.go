package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/dlt"
)

// pluginWasm is the wasip1 module built from this tree, for the runs
// through --plugin; TestMain builds it once.
var pluginWasm string

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		code := run(os.Args[1:], os.Stdout, os.Stderr)
		writePeakRSS()
		os.Exit(code)
	}
	dir, err := os.MkdirTemp("", "perfwire-cli")
	if err != nil {
		panic(err)
	}
	pluginWasm = filepath.Join(dir, "perfwire.wasm")
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", pluginWasm, "../../wasm/plugin")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		os.Stderr.Write(b)
		panic("building the wasip1 module: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestThroughPlugin runs the pdu, kpi, labels, events, mmv, dlt and
// archive tests again with their decode inside the all-formats wasip1
// module (what --plugin does).
func TestThroughPlugin(t *testing.T) {
	p, err := loadPlugin(pluginWasm)
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	plugin = p
	defer func() { plugin = nil }()
	for name, f := range map[string]func(*testing.T){
		"PDUCapture": TestPDUCapture, "PDUAllCaptures": TestPDUAllCaptures, "PDUBadInput": TestPDUBadInput,
		"PDUUsage": TestPDUUsage, "PDUEventRecordsMatchPminfo": TestPDUEventRecordsMatchPminfo,
		"KPISummary": TestKPISummary, "KPIJSON": TestKPIJSON, "KPITable": TestKPITable, "KPIErrors": TestKPIErrors,
		"KPIReportsSkippedDamage": TestKPIReportsSkippedDamage,
		"LabelsMergeQA561":        TestLabelsMergeQA561, "LabelsErrors": TestLabelsErrors,
		"EventsMatchPminfo": TestEventsMatchPminfo, "EventsErrors": TestEventsErrors,
		"MMVJSON": TestMMVJSON, "MMVErrors": TestMMVErrors, "MMVDirectory": TestMMVDirectory,
		"DLTUsage": TestDLTUsage, "ArchiveJSON": TestArchiveJSON,
	} {
		t.Run(name, f)
	}
}

// TestPluginByteIdentical: for every capture, cut and damaged inputs and
// several files at once, `perfwire --plugin perfwire.wasm` prints exactly
// what the native run prints, on stdout and stderr, with the same exit
// status.
func TestPluginByteIdentical(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string { return writeTestFile(t, dir, name, b) }
	read := func(name string) []byte { return readTestFile(t, name) }
	pdus, _ := filepath.Glob(captureDir + "conv*.bin")
	dlts, _ := filepath.Glob(kpiTestdata + "*.dlt")
	if len(pdus) != 34 || len(dlts) != 3 {
		t.Fatalf("%d PDU captures, %d DLT captures", len(pdus), len(dlts))
	}
	race := read(kpiTestdata + "excerpt-irq-strtok-race.dlt")
	odd := read(kpiTestdata + "kpi-odd.dlt")
	damaged := bytes.Clone(odd)
	damaged[5000] ^= 0xff
	copy(damaged[90000:], "xxxxxxxxxx")
	server := read(captureDir + "conv11.server.bin")
	cutDLT := write("cut.dlt", race[:7000])
	// A storage header overwritten mid-file: resynchronised over.
	header := bytes.Clone(odd)
	at := bytes.Index(header[len(header)/2:], []byte("DLT\x01")) + len(header)/2
	copy(header[at:], "XXXX")
	headerDLT := write("header.dlt", header)
	damagedDLT := write("damaged.dlt", damaged)
	// kpi-odd as a serial capture ("DLS" 01 before each message), garbage
	// after its 20th message: read in the serial framing both ways.
	var serial []byte
	for i, sc := 0, dlt.NewScanner(odd, dlt.Options{}); sc.Next(); i++ {
		serial = append(dlt.AppendSerialHeader(serial), sc.Message().Bytes()[dlt.StorageHeaderLen:]...)
		if i == 19 {
			serial = append(serial, "garbage"...)
		}
	}
	serialDLT := write("serial.dlt", serial)
	var cases [][]string
	for _, f := range pdus {
		cases = append(cases, []string{"pdu", f})
	}
	cases = append(cases, append([]string{"pdu"}, pdus[:4]...),
		[]string{"pdu", write("cut.bin", server[:len(server)-3])},
		[]string{"pdu", write("huge.bin", []byte("\x7f\xff\xff\xff\x00\x00\x70\x01\x00\x00\x00\x00"))},
		[]string{"pdu", "-limit", "100", captureDir + "conv05.server.bin"},
		[]string{"pdu", filepath.Join(dir, "missing.bin")})
	for _, f := range append(dlts, cutDLT, damagedDLT, headerDLT, serialDLT, "../../viewer/testdata/kpi-reuse.dlt") {
		for _, mode := range [][]string{{"kpi"}, {"kpi", "--json"}, {"kpi", "--summary"}, {"kpi", "--all"}, {"kpi", "--irqs"}} {
			cases = append(cases, append(mode, f))
		}
	}
	cases = append(cases, []string{"kpi", "--summary", dlts[0], dlts[1]}, []string{"kpi", "--summary", cutDLT, dlts[0]},
		[]string{"kpi", "--all", dlts[0], dlts[1]}, []string{"kpi", "--irqs", cutDLT, dlts[0]},
		[]string{"kpi", "--summary", serialDLT, serialDLT},
		[]string{"kpi", filepath.Join(dir, "missing.dlt")})
	// Label sets: the qa/561 merges, each of their sets alone, bad ones.
	qa := read("../../labels/testdata/qa/561-mergelabels.input.tsv")
	for _, line := range strings.Split(strings.TrimSpace(string(qa)), "\n") {
		sets := strings.Split(line, "\t")
		cases = append(cases, append([]string{"labels", "--merge"}, sets...), append([]string{"labels", "--json", "--merge"}, sets...),
			append([]string{"labels"}, sets...), append([]string{"labels", "--json"}, sets...))
	}
	for _, bad := range []string{`{"a":1`, `{"bad-key":1}`, `[1]`, `{"a":{"b":`, `{"a":1,"a":2}`, "", `{"x.y":1}`} {
		cases = append(cases, []string{"labels", bad}, []string{"labels", "--merge", `{"a":1}`, bad})
	}
	// Event arrays: each, cut, garbage.
	arrays, _ := filepath.Glob("../../wasm/testdata/conv05.pdu0.*EVENT.bin")
	cases = append(cases, append([]string{"events"}, arrays...))
	for _, f := range arrays {
		b := read(f)
		cases = append(cases, []string{"events", write("cut-"+filepath.Base(f), b[:len(b)-4])},
			[]string{"events", write("garbage-"+filepath.Base(f), b[4:])})
	}
	// The first cases load the module through the flag; the others share
	// one instance (instantiating the Go runtime takes about a second).
	shared, err := loadPlugin(pluginWasm)
	if err != nil {
		t.Fatal(err)
	}
	defer shared.close()
	for i, args := range cases {
		var nout, nerr, pout, perr bytes.Buffer
		ncode := run(args, &nout, &nerr)
		var pcode int
		if i%20 == 0 {
			pcode = run(append([]string{"--plugin", pluginWasm}, args...), &pout, &perr)
		} else {
			plugin = shared
			pcode = run(args, &pout, &perr)
			plugin = nil
		}
		if ncode != pcode || !bytes.Equal(nout.Bytes(), pout.Bytes()) || nerr.String() != perr.String() {
			t.Errorf("%q: native exit %d, %d bytes, %q; plugin exit %d, %d bytes, %q",
				args, ncode, nout.Len(), nerr.String(), pcode, pout.Len(), perr.String())
		}
	}
	// A storage capture after a serial one: natively each file is read in
	// its own framing, but the module's stream has one, so the run is
	// refused, saying what to do, rather than misread.
	var out, errb bytes.Buffer
	plugin = shared
	code := run([]string{"kpi", "--summary", serialDLT, dlts[0]}, &out, &errb)
	plugin = nil
	if code == 0 || !strings.Contains(errb.String(), "storage framing after "+serialDLT+"'s serial framing") {
		t.Errorf("--plugin kpi on a serial then a storage capture: exit %d, %q", code, errb.String())
	}
}
