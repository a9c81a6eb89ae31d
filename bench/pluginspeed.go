package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/tinylib/msgp/msgp"

	"github.com/perfwire/perfwire/wasm/abi"
)

// pluginWorkload is one of issue 18's plugin speed figures: a call of
// the js module in Node (V8) and of the wasip1 module in wazero, each
// against the same call in native Go, on a capture of wasm/testdata.
type pluginWorkload struct {
	id, title, file string
	// node is the workload's name in wasm/js/bench_node.mjs.
	node string
	// export and args call the wasip1 module on the input buffer.
	export string
	args   []uint64
	// native is the same call in Go, marshalled as the module does.
	native func(in []byte) msgp.Marshaler
	// feed: the call is pdu_feed of one PDU to an open stream session,
	// the per-call overhead of the smallest useful call.
	feed bool
	// nodeCalls is how many calls Node times per round (as many again
	// warm it up): about a quarter of a second of work.
	nodeCalls int
}

var pluginWorkloads = []pluginWorkload{
	{id: "plugin-kpi", title: "kpi_decode of a dlt-kpi capture", file: "kpi-odd.dlt", node: "kpi", nodeCalls: 50,
		export: "kpi_decode", args: []uint64{0},
		native: func(in []byte) msgp.Marshaler { r := abi.DecodeKPI(in, 0); return &r }},
	{id: "plugin-pdu", title: "pdu_decode of a recorded pmcd conversation (every PDU in full)", file: "conv05.server.bin",
		node: "pdu", nodeCalls: 2500, export: "pdu_decode", args: []uint64{0},
		native: func(in []byte) msgp.Marshaler { r := abi.DecodePDUs(in, 0); return &r }},
	{id: "plugin-mmv", title: "mmv_read of an MMV file", file: "sample2.mmv", node: "mmv", nodeCalls: 5000,
		export: "mmv_read", args: []uint64{0},
		native: func(in []byte) msgp.Marshaler { r := abi.ReadMMV(in, false); return &r }},
	{id: "plugin-feed", title: "pdu_feed of one 312-byte HIGHRES_RESULT to a PDU stream session (per-call overhead)",
		file: "conv05.server.bin", node: "feed", feed: true, nodeCalls: 5000},
}

// pluginOne is the PDU bench_node.mjs's feed workload feeds: the first
// HIGHRES_RESULT of conv05.server.bin.
const pluginOneAt, pluginOneLen = 152, 312

// pluginModules builds the js and wasip1 all-formats modules of the
// checkout into bin/, as `make wasm` builds them, once per run for all the
// plugin figures, and returns their paths.
var pluginModules = sync.OnceValues(func() ([2]string, error) {
	root, err := repoRoot()
	if err != nil {
		return [2]string{}, err
	}
	mods := [2]string{filepath.Join(root, "bin", "perfwire-js.wasm"), filepath.Join(root, "bin", "perfwire.wasm")}
	for i, m := range []struct{ goos, pkg string }{{"js", "./wasm/js"}, {"wasip1", "./wasm/plugin"}} {
		args := []string{"build", "-trimpath", "-ldflags=-s -w", "-o", mods[i]}
		if m.goos == "wasip1" {
			args = append(args, "-buildmode=c-shared")
		}
		cmd := exec.Command("go", append(args, m.pkg)...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOOS="+m.goos, "GOARCH=wasm")
		if out, err := cmd.CombinedOutput(); err != nil {
			return mods, fmt.Errorf("build %s: %v: %s", m.pkg, err, lastLines(out, 5))
		}
	}
	return mods, nil
})

func figPlugin(w pluginWorkload) func(Config) Figure {
	return func(cfg Config) Figure {
		f := Figure{
			ID:       w.id,
			Title:    "WebAssembly plugin speed: " + w.title + ", in Node (V8) and wazero against native Go",
			Unit:     w.title + " (" + w.file + "), the host copying the input in and the result out",
			Goal:     "the js module in Node at least 0.3x native Go",
			MinRatio: 0.3,
		}
		fail := func(msg string) Figure {
			f.Stats = append(f.Stats, Stat{Name: "plugin figure setup", Err: msg})
			return f
		}
		root, err := repoRoot()
		if err != nil {
			return fail(err.Error())
		}
		mods, err := pluginModules()
		if err != nil {
			return fail(err.Error())
		}
		jsMod, wasiMod := mods[0], mods[1]
		testdata := filepath.Join(root, "wasm/testdata")
		in, err := os.ReadFile(filepath.Join(testdata, w.file))
		if err != nil {
			return fail(err.Error())
		}
		if w.feed {
			in = in[pluginOneAt : pluginOneAt+pluginOneLen]
		}
		f.Bytes = len(in)
		mod, err := os.ReadFile(wasiMod)
		if err != nil {
			return fail(err.Error())
		}
		h, err := newWasmHost(mod)
		if err != nil {
			return fail("wazero: " + err.Error())
		}
		defer h.close()
		wasmExec := filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js")
		script := filepath.Join(root, "wasm/js/bench_node.mjs")
		nodeSide := Side{Name: "perfwire-js.wasm in Node " + nodeVersion(), NoSum: true, Fixed: w.nodeCalls,
			Timed: func(n int) (time.Duration, time.Duration, uint64, error) {
				out, err := exec.Command("node", script, wasmExec, jsMod, testdata, w.node, strconv.Itoa(n)).Output()
				if err != nil {
					return 0, 0, 0, fmt.Errorf("node bench_node.mjs %s: %v", w.node, err)
				}
				ns, err := strconv.ParseInt(string(bytes.TrimSpace(out)), 10, 64)
				if err != nil {
					return 0, 0, 0, fmt.Errorf("node bench_node.mjs said %q", out)
				}
				return time.Duration(ns), time.Duration(ns), 0, nil
			}}
		var wazeroSide, nativeSide Side
		if w.feed {
			s, err := h.call("pdu_stream", 0)
			if err != nil || s == 0 {
				return fail(fmt.Sprintf("pdu_stream: %v", err))
			}
			hin, err := h.call("alloc", uint64(len(in)))
			if err != nil || hin == 0 {
				return fail(fmt.Sprintf("alloc: %v", err))
			}
			ptr, _ := h.call("buf_ptr", hin)
			h.mod.Memory().Write(uint32(ptr), in)
			wazeroSide = Side{Name: "perfwire.wasm in wazero " + wazeroVersion(), Run: func(n int) uint64 {
				var sum uint64
				for range n {
					r, err := h.call("pdu_feed", s, hin)
					if err != nil {
						return 0
					}
					ptr, _ := h.call("buf_ptr", r)
					l, _ := h.call("buf_len", r)
					view, _ := h.mod.Memory().Read(uint32(ptr), uint32(l))
					sum = hash(bytes.Clone(view))
					h.call("free", r)
				}
				return sum
			}}
			ns := abi.NewPDUSession(0)
			nativeSide = Side{Name: "native Go (abi.PDUSession.Feed + MarshalMsg)", Peer: true, Run: func(n int) uint64 {
				var sum uint64
				for range n {
					r := ns.Feed(in)
					out, err := r.MarshalMsg(nil)
					if err != nil {
						return 0
					}
					sum = hash(out)
				}
				return sum
			}}
		} else {
			wazeroSide = Side{Name: "perfwire.wasm in wazero " + wazeroVersion(), Run: func(n int) uint64 {
				var sum uint64
				for range n {
					out, err := h.run(w.export, in, w.args...)
					if err != nil {
						return 0
					}
					sum = hash(out)
				}
				return sum
			}}
			nativeSide = Side{Name: "native Go (the same call + MarshalMsg)", Peer: true, Run: func(n int) uint64 {
				var sum uint64
				for range n {
					out, err := w.native(in).MarshalMsg(nil)
					if err != nil {
						return 0
					}
					sum = hash(out)
				}
				return sum
			}}
		}
		f.Stats = compare(cfg, false, []Side{nodeSide, wazeroSide, nativeSide})
		checkSums(&f)
		f.Notes = append(f.Notes, "Node's side runs bench_node.mjs once per round, which times its calls itself after a warm-up "+
			"(its start-up is not counted); wazero's and native Go's results are checked equal by checksum. "+
			"The ratio is native median ÷ side median: the plugin's speed as a fraction of native Go.")
		return f
	}
}

// nodeVersion is `node --version`, or "" when it cannot be run.
func nodeVersion() string {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return ""
	}
	return string(bytes.TrimSpace(out))
}
