//go:build conformance

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/render"
	"github.com/perfwire/perfwire/schema"
	"github.com/perfwire/perfwire/wasm/abi"
	"github.com/tinylib/msgp/msgp"
)

// TestConformanceNodeJS builds the GOOS=js module, runs every call in
// Node with Go's wasm_exec.js, through the perfwire object's syscall/js
// functions and through the wasm exports that perfwire.mjs binds, and
// compares each result with the native call's bytes.
func TestConformanceNodeJS(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is required for the js/wasm test: ", err)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mod := filepath.Join(dir, "perfwire-js.wasm")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", mod, ".")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	wasmExec := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js")
	for _, path := range []string{"syscall", "exports", "views"} {
		t.Run(path, func(t *testing.T) {
			outdir := filepath.Join(dir, path)
			if err := os.Mkdir(outdir, 0o755); err != nil {
				t.Fatal(err)
			}
			run := exec.Command(node, "run_node.mjs", wasmExec, mod, filepath.Join("..", "testdata"), outdir, path)
			if out, err := run.CombinedOutput(); err != nil {
				t.Fatalf("node: %v\n%s", err, out)
			}
			checkNodeResults(t, outdir)
			if path != "exports" {
				return
			}
			// 40,000 calls after the others: 8.8 MB here.
			b, err := os.ReadFile(filepath.Join(outdir, "memory"))
			if err != nil {
				t.Fatal(err)
			}
			if n, err := strconv.Atoi(string(b)); err != nil || n > 16<<20 {
				t.Errorf("linear memory after 40,000 calls through the exports: %s bytes (at most 16 MB)", b)
			}
		})
	}
}

// checkNodeResults compares what run_node.mjs wrote to outdir with the
// native calls' results.
func checkNodeResults(t *testing.T, outdir string) {
	read := func(name string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(outdir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	same := func(name string, m msgp.Marshaler) {
		t.Helper()
		want, err := m.MarshalMsg(nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := read(name); !bytes.Equal(got, want) {
			t.Errorf("%s: js result (%d bytes) differs from native (%d bytes)", name, len(got), len(want))
		}
	}

	if v := string(read("abi_version")); v != strconv.Itoa(abi.Version) {
		t.Errorf("abiVersion = %s", v)
	}
	for _, name := range []string{"kpi-odd.dlt", "excerpt-irq-strtok-race.dlt", "kpi-huge-argv0.dlt"} {
		in, err := os.ReadFile(filepath.Join("..", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		same(name+".decode", msgp.Raw(render.AppendKPIMessages(nil, in, 0, 0)))
		s := render.NewKPISession(in)
		for i := 0; ; i++ {
			st := s.Step(37)
			same(name+".step"+strconv.Itoa(i), &st)
			if st.Done {
				if _, err := os.Stat(filepath.Join(outdir, name+".step"+strconv.Itoa(i+1))); err == nil {
					t.Errorf("%s: js stepped past the end", name)
				}
				break
			}
		}
		tb := s.Table()
		same(name+".table", &tb)
		stream := render.NewKPIStream(0)
		for off, i := 0, 0; off < len(in); off, i = off+1000, i+1 {
			f := stream.Feed(in[off:min(off+1000, len(in))])
			same(name+".feed"+strconv.Itoa(i), &f)
		}
		end := stream.End()
		same(name+".end", &end)
		same(name+".closed", schema.Failure(schema.ErrBadHandle))
	}
	text, err := os.ReadFile(filepath.Join("..", "testdata", "parse-10.json"))
	if err != nil {
		t.Fatal(err)
	}
	same("labels.canon", msgp.Raw(render.AppendLabels(nil, bytes.TrimSpace(text), false)))
	ev, err := os.ReadFile(filepath.Join("..", "testdata", "conv05.pdu0.HIGHRES_RESULT.29.0.139.inst0.HIGHRES_EVENT.bin"))
	if err != nil {
		t.Fatal(err)
	}
	same("events.decode", msgp.Raw(render.AppendEvents(nil, ev)))
	pdus, err := os.ReadFile(filepath.Join("..", "testdata", "conv01.server.bin"))
	if err != nil {
		t.Fatal(err)
	}
	p := render.DecodePDUs(pdus, 0)
	same("pdu.decode", &p)
	img, err := os.ReadFile(filepath.Join("..", "testdata", "sample2.mmv"))
	if err != nil {
		t.Fatal(err)
	}
	same("mmv.read", msgp.Raw(render.AppendMMV(nil, img, false)))
	same("bad.decode", schema.Failure(schema.ErrBadInput))
	if b := read("bad.framing"); !bytes.Equal(b, []byte{0, 0, 0}) {
		t.Errorf("sessions opened with bad framing or limits: %v", b)
	}
	// Garbage: every decoder answers an error value, as natively.
	garbage := bytes.Repeat([]byte("DLT\x01 garbage, not any format "), 20)
	native := abi.NewModule()
	for _, c := range abi.Calls {
		if c.Args != abi.ArgIn && c.Args != abi.ArgInN {
			continue
		}
		got := read("garbage." + c.JS)
		if want := native.Call(abi.Op(slices.Index(abi.Calls[:], c)), native.Keep(garbage), 0); !bytes.Equal(got, want) {
			t.Errorf("garbage to %s: js and native differ", c.JS)
		}
		var e schema.ErrorResult
		if _, err := e.UnmarshalMsg(got); err != nil || (e.Error == nil && c.JS != "kpiDecode") {
			t.Errorf("garbage to %s: no error value (%v)", c.JS, err)
		}
	}
	// A PDU stream fed 7 bytes at a time.
	stream, err := os.ReadFile(filepath.Join("..", "testdata", "conv05.server.bin"))
	if err != nil {
		t.Fatal(err)
	}
	ps := render.NewPDUSession(0)
	for off, i := 0, 0; off < len(stream); off, i = off+7, i+1 {
		f := ps.Feed(stream[off:min(off+7, len(stream))])
		same("pdu.feed"+strconv.Itoa(i), &f)
	}
	pe := ps.End()
	same("pdu.end", &pe)
}
