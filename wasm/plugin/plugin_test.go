package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/dltkpi"
	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/render"
	"github.com/perfwire/perfwire/schema"
	"github.com/perfwire/perfwire/wasm/abi"
	"github.com/tinylib/msgp/msgp"
)

var captures = []string{"kpi-odd.dlt", "excerpt-irq-strtok-race.dlt", "kpi-huge-argv0.dlt"}

// marshal is the native side of every comparison: the same call compiled
// for the host.
func marshal(t testing.TB, v msgp.Marshaler) []byte {
	t.Helper()
	b, err := v.MarshalMsg(nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sameBytes(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if !bytes.Equal(got, want) {
		t.Errorf("%s: wasm result (%d bytes) differs from native (%d bytes)", what, len(got), len(want))
	}
}

func TestABIVersion(t *testing.T) {
	h := newHost(t)
	if v := h.call("abi_version"); v != abi.Version {
		t.Errorf("abi_version = %d, want %d", v, abi.Version)
	}
}

// TestKPIDecode checks kpi_decode against the native call and the number
// of PROC/PROC messages against dlt-convert's listing of each capture.
func TestKPIDecode(t *testing.T) {
	h := newHost(t)
	for _, name := range captures {
		in := readFile(t, name)
		got := h.run("kpi_decode", in, 0)
		sameBytes(t, name, got, render.AppendKPIMessages(nil, in, 0, 0))

		var res schema.KPIMessages
		if _, err := res.UnmarshalMsg(got); err != nil {
			t.Fatalf("%s: result is not a KPIMessages map: %v", name, err)
		}
		ascii := filepath.Join("..", "testdata", strings.TrimSuffix(name, ".dlt")+".ascii.txt")
		if text, err := os.ReadFile(ascii); err == nil {
			if want := strings.Count(string(text), " PROC PROC log "); len(res.Messages) != want {
				t.Errorf("%s: %d KPI messages, dlt-convert lists %d", name, len(res.Messages), want)
			}
		}
		if res.Error != nil {
			t.Errorf("%s: error %+v", name, *res.Error)
		}

		// With a limit the call stops and says where.
		part := h.run("kpi_decode", in, 5)
		sameBytes(t, name+" max 5", part, render.AppendKPIMessages(nil, in, 5, 0))
		var native schema.KPIMessages
		if _, err := native.UnmarshalMsg(part); err != nil {
			t.Fatalf("%s max 5: result is not a KPIMessages map: %v", name, err)
		}
		if !native.More || len(native.Messages) != 5 {
			t.Errorf("%s max 5: more=%v, %d messages", name, native.More, len(native.Messages))
		}
	}
}

// TestKPISession steps a session through each capture in small steps and
// compares every step and the final table with the native session, and the
// table with what dltkpi's tracker says when fed directly.
func TestKPISession(t *testing.T) {
	h := newHost(t)
	for _, name := range captures {
		in := readFile(t, name)
		hin := h.put(in)
		s := h.call("kpi_open", hin)
		h.call("free", hin) // the session keeps the bytes
		native := render.NewKPISession(in)
		samples := 0
		for i := 0; ; i++ {
			got := h.take(h.call("kpi_step", s, 37))
			step := native.Step(37)
			sameBytes(t, name+" step", got, marshal(t, &step))
			samples += len(step.Samples)
			if step.Done {
				break
			}
			if i > len(in) {
				t.Fatalf("%s: session never ends", name)
			}
		}
		got := h.take(h.call("kpi_table", s))
		table := native.Table()
		sameBytes(t, name+" table", got, marshal(t, &table))
		h.call("free", s)

		// The tracker fed directly knows the same processes.
		want := directPIDs(t, in)
		var pids []int32
		for _, p := range table.Processes {
			pids = append(pids, p.PID)
		}
		if !slices.Equal(pids, want) || len(pids) == 0 {
			t.Errorf("%s: table pids %v, tracker %v", name, pids, want)
		}
		if name == "kpi-odd.dlt" && samples == 0 {
			t.Errorf("%s: no CPU samples", name)
		}
	}
}

func directPIDs(t *testing.T, in []byte) []int32 {
	r := dltkpi.NewReassembler(dltkpi.Options{})
	tr := dltkpi.NewTracker(dltkpi.Options{})
	var sel dltkpi.Selector
	s := newScanner(in)
	for s.Next() {
		r.PushDLT(sel, s.Message())
		for r.Next() {
			tr.Apply(r.Event())
		}
	}
	r.Flush()
	for r.Next() {
		tr.Apply(r.Event())
	}
	var pids []int32
	for _, p := range tr.Processes() {
		pids = append(pids, p.PID)
	}
	return pids
}

// TestLabelsMerge merges the sets of PCP QA test 561 and expects its
// output, from the wasm module.
func TestLabelsMerge(t *testing.T) {
	h := newHost(t)
	inputs := strings.Split(strings.TrimSpace(string(readFile(t, "561-mergelabels.input.tsv"))), "\n")
	expected := strings.Split(strings.TrimSpace(string(readFile(t, "561-mergelabels.expected.txt"))), "\n")
	if len(inputs) != len(expected) {
		t.Fatalf("%d inputs, %d expected lines", len(inputs), len(expected))
	}
	for i, line := range inputs {
		sets := strings.Split(line, "\t")
		in := msgp.AppendArrayHeader(nil, uint32(len(sets)))
		for _, s := range sets {
			in = msgp.AppendString(in, s)
		}
		got := h.run("labels_merge", in)
		sameBytes(t, line, got, render.AppendLabels(nil, in, true))
		var native schema.LabelSet
		if _, err := native.UnmarshalMsg(got); err != nil {
			t.Fatalf("merge %s: result is not a LabelSet map: %v", line, err)
		}
		if native.Error != nil || native.JSON != expected[i] {
			t.Errorf("merge %s = %q (error %v), QA expects %s", line, native.JSON, native.Error, expected[i])
		}
	}
}

// TestLabelsCanon canonicalises real label sets and checks the result
// against the labels pminfo printed for the same PMDA.
func TestLabelsCanon(t *testing.T) {
	h := newHost(t)
	for _, line := range strings.Split(strings.TrimSpace(string(readFile(t, "merge-5.jsonl"))), "\n") {
		got := h.run("labels_canon", []byte(line))
		sameBytes(t, line, got, render.AppendLabels(nil, []byte(line), false))
		var native schema.LabelSet
		if _, err := native.UnmarshalMsg(got); err != nil {
			t.Fatalf("canon %s: result is not a LabelSet map: %v", line, err)
		}
		if native.Error != nil || len(native.Labels) == 0 {
			t.Errorf("canon %s: %+v", line, native)
		}
	}
	// pminfo printed this context+domain+cluster set for sample.event.records.
	const pminfo = `{"agent":"sample","cluster":"zero","domainname":"localdomain","hostname":"vm","machineid":"3d1219c7c4c5404aaa1f6d2a48adfda4","role":"testing"}`
	if !strings.Contains(string(readFile(t, "conv05.out.txt")), pminfo) {
		t.Fatal("conv05.out.txt lacks the label line")
	}
	in := []byte(`{ "role": "testing", "machineid":"3d1219c7c4c5404aaa1f6d2a48adfda4", "hostname":"vm",
		"domainname":"localdomain","cluster":"zero","agent":"sample"}`)
	var res schema.LabelSet
	if _, err := res.UnmarshalMsg(h.run("labels_canon", in)); err != nil || res.JSON != pminfo {
		t.Errorf("canon = %q, %v; pminfo shows %s", res.JSON, err, pminfo)
	}
}

// TestEventsDecode decodes the event arrays of a live pmcd RESULT and
// checks the record counts pminfo reported for them.
func TestEventsDecode(t *testing.T) {
	h := newHost(t)
	records := map[string]int{"136.inst0": 0, "136.inst1": 2, "139.inst0": 2, "139.inst1": 1}
	for key, want := range records {
		matches, _ := filepath.Glob(filepath.Join("..", "testdata", "conv05.*."+key+".*.bin"))
		if len(matches) != 1 {
			t.Fatalf("%s: %v", key, matches)
		}
		in := readFile(t, filepath.Base(matches[0]))
		got := h.run("events_decode", in)
		nb := render.AppendEvents(nil, in)
		sameBytes(t, key, got, nb)
		var native schema.EventArray
		if _, err := native.UnmarshalMsg(nb); err != nil {
			t.Fatalf("%s: the native result does not read back: %v", key, err)
		}
		if native.Error != nil || len(native.Records) != want {
			t.Errorf("%s: %d records (error %v), pminfo shows %d", key, len(native.Records), native.Error, want)
		}
		if native.HighRes != strings.HasPrefix(key, "139") {
			t.Errorf("%s: highres = %v", key, native.HighRes)
		}
	}
}

// TestErrorsAreValues feeds bad handles and malformed input: every call
// must return a result whose error says why, and the module must go on.
func TestErrorsAreValues(t *testing.T) {
	h := newHost(t)
	for op, c := range abi.Calls {
		if abi.Op(op).Opens() {
			if h.call(c.Export, 0xffffffff) != 0 {
				t.Errorf("%s(bad argument) opened a session", c.Export)
			}
			continue
		}
		name := c.Export
		args := []uint64{9999}
		if c.Args == abi.ArgInN || c.Args == abi.ArgSessionN || c.Args == abi.ArgSessionIn {
			args = append(args, 0)
		}
		var res schema.ErrorResult
		if _, err := res.UnmarshalMsg(h.take(h.call(name, args...))); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.Error == nil || res.Error.Kind != schema.ErrBadHandle.Code() {
			t.Errorf("%s(bad handle): error %+v", name, res.Error)
		}
	}
	if h.call("buf_ptr", 9999) != 0 || h.call("buf_len", 9999) != 0 {
		t.Error("a bad handle gave a session, a pointer or a length")
	}
	h.call("free", 9999)
	if h.call("alloc", 1<<31) != 0 {
		t.Error("alloc(2 GiB) succeeded")
	}

	// A truncated event array: the kind and offset of eventrec's error.
	in := readFile(t, "conv05.pdu0.HIGHRES_RESULT.29.0.136.inst1.EVENT.bin")
	in = in[:len(in)-4]
	var res schema.EventArray
	if _, err := res.UnmarshalMsg(h.run("events_decode", in)); err != nil {
		t.Fatal(err)
	}
	_, nerr := eventrec.Parse(in, eventrec.Options{})
	pe, ok := errors.AsType[*eventrec.ParseError](nerr)
	if !ok || res.Error == nil || res.Error.Kind != schema.ErrorOf(nerr).Kind || res.Error.Offset != pe.Offset || res.Error.Format != "eventrec" {
		t.Errorf("truncated array: wasm error %+v, native %v", res.Error, nerr)
	}

	// Bad label JSON and a merge input that is not an array.
	var ls schema.LabelSet
	if _, err := ls.UnmarshalMsg(h.run("labels_canon", []byte(`{"a":`))); err != nil || ls.Error == nil || ls.Error.Offset < 0 {
		t.Errorf("bad JSON: %+v, %v", ls.Error, err)
	}
	if _, err := ls.UnmarshalMsg(h.run("labels_merge", []byte{0xc1})); err != nil || ls.Error == nil || ls.Error.Kind != schema.ErrBadInput.Code() {
		t.Errorf("bad merge input: %+v, %v", ls.Error, err)
	}

	// Garbage as a DLT capture: no KPI messages, no trap.
	var km schema.KPIMessages
	if _, err := km.UnmarshalMsg(h.run("kpi_decode", bytes.Repeat([]byte("DLT\x01junk"), 100), 0)); err != nil || len(km.Messages) != 0 {
		t.Errorf("garbage: %d messages, %v", len(km.Messages), err)
	}
	if h.call("abi_version") != abi.Version {
		t.Error("module unusable after errors")
	}
}

// TestExportsDocumented: every function the module exports is described
// in ABI.md, and every call ABI.md describes is exported.
func TestExportsDocumented(t *testing.T) {
	h := newHost(t)
	doc := string(readFile(t, "../ABI.md"))
	exported := map[string]bool{}
	for name := range h.mod.ExportedFunctionDefinitions() {
		exported[name] = true
		if name == "_initialize" {
			continue
		}
		if !strings.Contains(doc, "`"+name+"`") && !strings.Contains(doc, "`"+name+"(") {
			t.Errorf("export %s is not in ABI.md", name)
		}
	}
	names := []string{"abi_version", "alloc", "buf_ptr", "buf_len", "free"}
	for _, c := range abi.Calls {
		names = append(names, c.Export)
	}
	for _, name := range names {
		if !exported[name] {
			t.Errorf("ABI.md's %s is not exported", name)
		}
	}
}

// TestKPIStream feeds each capture to a stream session in pieces of
// varying size and compares every result with the native stream's.
func TestKPIStream(t *testing.T) {
	h := newHost(t)
	for _, name := range captures {
		in := readFile(t, name)
		s := h.call("kpi_stream", 0)
		native := render.NewKPIStream(0)
		for off, n := 0, 1; off < len(in); off, n = off+n, n*3%4093+1 {
			n = min(n, len(in)-off)
			// kpi_feed takes the session first: put the chunk by hand.
			hin := h.put(in[off : off+n])
			got := h.take(h.call("kpi_feed", s, hin))
			h.call("free", hin)
			want := native.Feed(in[off : off+n])
			sameBytes(t, name+" feed", got, marshal(t, &want))
		}
		end := native.End()
		sameBytes(t, name+" end", h.take(h.call("kpi_end", s)), marshal(t, &end))
		table := native.Table()
		sameBytes(t, name+" table", h.take(h.call("kpi_table", s)), marshal(t, &table))
		if end.Error != nil || !end.Done || len(table.Processes) == 0 {
			t.Errorf("%s: end %+v, %d processes", name, end, len(table.Processes))
		}
		h.call("free", s)
	}
}
