package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/perfwire/perfwire/bench/pluginfloor"
	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/render"
)

// pluginWorkload is one of the plugin speed figures: a call of
// the js module in Node (V8) and of the wasip1 module in wazero, each
// against the same call in native Go.
type pluginWorkload struct {
	id, title string
	// file is the input: a capture of wasm/testdata, or the name of an
	// input made by input.
	file string
	// input, when set, makes the input (from the repository's root);
	// Node reads it from a temporary file.
	input func(root string) ([]byte, error)
	// node is the workload's name in wasm/js/bench_node.mjs.
	node string
	// export and args call the wasip1 module on the input buffer.
	export string
	args   []uint64
	// native is the same call in Go, appending the MessagePack result
	// to dst as the module writes it into its buffer.
	native func(dst, in []byte) []byte
	// walk is the call's decoder alone (package pluginfloor), timed
	// natively and, as bench_node.mjs's walk:node, in the floor module.
	walk func(in []byte) uint32
	// feed: the call is pdu_feed of one PDU to an open stream session,
	// the per-call overhead of the smallest useful call.
	feed bool
	// stream: one operation opens a PDU stream session, feeds it the
	// whole input in streamChunk pieces (as the viewer feeds a socket or
	// a file) and ends it.
	stream bool
	// nodeCalls is how many calls Node times per round (as many again
	// warm it up): about a quarter of a second of work.
	nodeCalls int
	// floor: a per-call figure (under 10 µs natively), which also times
	// bench_node.mjs's floor of the same input: the call's boundary in
	// Node with none of its work, below which its Node time cannot go.
	floor bool
}

// streamChunk is the piece a stream figure feeds: the viewer's read size.
const streamChunk = 64 << 10

var pluginWorkloads = []pluginWorkload{
	{id: "plugin-kpi", title: "kpi_decode of a dlt-kpi capture (156 KB, one call)", file: "kpi-odd.dlt", node: "kpi", nodeCalls: 150, walk: pluginfloor.KPI,
		export: "kpi_decode", args: []uint64{0},
		native: func(dst, in []byte) []byte { return render.AppendKPIMessages(dst, in, 0, 0) }},
	{id: "plugin-pdu", title: "pdu_decode of a 1 KB pmcd conversation (every PDU in full; mostly per-call cost)", file: "conv05.server.bin",
		node: "pdu", nodeCalls: 2500, floor: true, walk: pluginfloor.PDUs, export: "pdu_decode", args: []uint64{0},
		native: func(dst, in []byte) []byte { return render.AppendPDUs(dst, in, 0) }},
	{id: "plugin-mmv", title: "mmv_read of a 5.7 KB MMV file (mostly per-call cost)", file: "sample2.mmv", node: "mmv", nodeCalls: 5000, floor: true, walk: pluginfloor.MMV,
		export: "mmv_read", args: []uint64{0},
		native: func(dst, in []byte) []byte { return render.AppendMMV(dst, in, false) }},
	{id: "plugin-feed", title: "pdu_feed of one 312-byte HIGHRES_RESULT to a PDU stream session (the per-call overhead)",
		file: "conv05.server.bin", node: "feed", feed: true, nodeCalls: 5000, floor: true, walk: pluginfloor.PDUs},
	{id: "plugin-stream", title: "a 1 MB RESULT stream fed to pdu_feed in 64 KB chunks (throughput)",
		file: "RESULT stream", input: pluginStreamInput, node: "stream", stream: true, nodeCalls: 40, walk: pluginfloor.PDUs},
	{id: "plugin-mmv-large", title: "mmv_read of a 662 KB MMV file: 422 metrics, 11,422 values (throughput)", file: "large-parfait rewritten",
		input: pluginMMVInput, node: "mmvlarge", nodeCalls: 40, walk: pluginfloor.MMV, export: "mmv_read", args: []uint64{0},
		native: func(dst, in []byte) []byte { return render.AppendMMV(dst, in, false) }},
}

// pluginOne is the PDU bench_node.mjs's feed workload feeds: the first
// HIGHRES_RESULT of conv05.server.bin.
const pluginOneAt, pluginOneLen = 152, 312

// pluginStreamInput is stream.go's pattern (every RESULT and
// HIGHRES_RESULT of pduwire's pmcd captures, then libpcp's two 1,000-value
// RESULTs) repeated to 1 MiB or just over, whole PDUs only.
func pluginStreamInput(string) ([]byte, error) {
	pat, _, err := streamPattern()
	if err != nil {
		return nil, err
	}
	var in []byte
	for len(in) < 1<<20 {
		in = append(in, pat...)
	}
	return in, nil
}

// pluginMMVInput is PCP QA's large-parfait (mmv/testdata/qa: 422 metrics
// a Java agent wrote, 664 KB) laid out again by mmv.Registry without the
// one metric pmdammv and mmv_read refuse (item 1024), with its values:
// a large real file that mmv_read accepts.
func pluginMMVInput(root string) ([]byte, error) {
	in, err := os.ReadFile(filepath.Join(root, "mmv/testdata/qa/large-parfait"))
	if err != nil {
		return nil, err
	}
	order := binary.LittleEndian
	r, err := mmv.Parse(in, mmv.Options{Order: order, SkipRefused: true})
	if err != nil {
		return nil, err
	}
	reg := r.Registry()
	p, err := reg.Plan()
	if err != nil {
		return nil, fmt.Errorf("large-parfait's layout: %v", err)
	}
	out := p.AppendFile(nil, order)
	if err := p.CopyValues(out, order, &r); err != nil {
		return nil, err
	}
	return out, nil
}

// pluginModules builds the js and wasip1 all-formats modules of the
// checkout into bin/, as `make wasm` builds them, and the floor module
// (bench/pluginfloor/module, GOOS=js with the js module's flags) into
// bin/ too, once per run for all the plugin figures, and returns their
// paths.
var pluginModules = sync.OnceValues(func() ([3]string, error) {
	root, err := repoRoot()
	if err != nil {
		return [3]string{}, err
	}
	mods := [3]string{filepath.Join(root, "bin", "perfwire-js.wasm"), filepath.Join(root, "bin", "perfwire.wasm"),
		filepath.Join(root, "bin", "pluginfloor-js.wasm")}
	for i, m := range []struct{ goos, dir, pkg string }{{"js", ".", "./wasm/js"}, {"wasip1", ".", "./wasm/plugin"},
		{"js", "bench", "./pluginfloor/module"}} {
		args := []string{"build", "-trimpath", "-ldflags=-s -w", "-o", mods[i]}
		if m.goos == "wasip1" {
			args = append(args, "-buildmode=c-shared")
		}
		cmd := exec.Command("go", append(args, m.pkg)...)
		cmd.Dir = filepath.Join(root, m.dir)
		cmd.Env = append(os.Environ(), "GOOS="+m.goos, "GOARCH=wasm")
		if out, err := cmd.CombinedOutput(); err != nil {
			return mods, fmt.Errorf("build %s: %v: %s", m.pkg, err, lastLines(out, 5))
		}
	}
	return mods, nil
})

// sumSeed seeds the plugin figures' checksums, taken over the results of
// a round's last run only: Node's side hashes nothing, and hashing every
// result cost native Go a tenth of a kpi_decode call (maphash, at memory
// speed; FNV's byte loop had cost as much as a small call).
var sumSeed = maphash.MakeSeed()

func sum(b []byte) uint64 { return maphash.Bytes(sumSeed, b) }

func figPlugin(w pluginWorkload) func(Config) Figure {
	return func(cfg Config) Figure {
		f := Figure{
			ID:       w.id,
			Title:    "WebAssembly plugin speed: " + w.title + ", in Node (V8) and wazero against native Go",
			Unit:     w.title + " (" + w.file + "), the host copying the input in and reading the result in place",
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
		jsMod, wasiMod, floorMod := mods[0], mods[1], mods[2]
		testdata := filepath.Join(root, "wasm/testdata")
		var in []byte
		nodeArgs := []string{}
		if w.input != nil {
			if in, err = w.input(root); err != nil {
				return fail(err.Error())
			}
			tmp, err := os.CreateTemp("", "perfwire-"+w.node+"-*")
			if err != nil {
				return fail(err.Error())
			}
			defer os.Remove(tmp.Name())
			_, err = tmp.Write(in)
			if err = errors.Join(err, tmp.Close()); err != nil {
				return fail(err.Error())
			}
			nodeArgs = append(nodeArgs, tmp.Name())
		} else if in, err = os.ReadFile(filepath.Join(testdata, w.file)); err != nil {
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
		// Go's glue for the js module, from the go command that built it
		// (runtime.GOROOT is the harness's own build's).
		goroot, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			return fail("go env GOROOT: " + err.Error())
		}
		wasmExec := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js")
		script := filepath.Join(root, "wasm/js/bench_node.mjs")
		// nodeTimed runs bench_node.mjs's workload named node in module
		// mod.
		nodeTimed := func(mod, node string) func(n int) (time.Duration, time.Duration, uint64, error) {
			return func(n int) (time.Duration, time.Duration, uint64, error) {
				args := append([]string{script, wasmExec, mod, testdata, node, strconv.Itoa(n)}, nodeArgs...)
				out, err := exec.Command("node", args...).Output()
				if err != nil {
					return 0, 0, 0, fmt.Errorf("node bench_node.mjs %s: %v", node, err)
				}
				// bench_node.mjs prints the process's CPU time, then the
				// wall time of the timed calls (then, for a walk, its
				// checksum). The wall time ranks: it is the calls' thread's,
				// as the native side's thread CPU time is, where the
				// process's CPU time adds V8's compiler and collector
				// threads (2-3x the calls' wall time on kpi_decode), as
				// native Go's collector threads are not counted.
				f := strings.Fields(string(out))
				if len(f) != 2 && len(f) != 3 {
					return 0, 0, 0, fmt.Errorf("node bench_node.mjs said %q", out)
				}
				wall, err := strconv.ParseInt(f[1], 10, 64)
				var sum uint64
				if err == nil && len(f) == 3 {
					sum, err = strconv.ParseUint(f[2], 10, 32)
				}
				if err != nil {
					return 0, 0, 0, fmt.Errorf("node bench_node.mjs said %q", out)
				}
				return time.Duration(wall), time.Duration(wall), sum, nil
			}
		}
		nodeName := "perfwire-js.wasm in Node " + nodeVersion()
		sides := []Side{{Name: nodeName + " (perfwire.mjs's views)", NoSum: true, Fixed: w.nodeCalls, Timed: nodeTimed(jsMod, w.node)}}
		if w.floor {
			sides = append(sides, Side{Name: nodeName + ": floor, the call's boundary alone", NoSum: true, NoRatio: true,
				Fixed: w.nodeCalls, Timed: nodeTimed(jsMod, "floor:"+w.node)})
		}
		// The decoder alone, in Node and natively: the same walk.
		walkAt := len(sides)
		var walked uint32
		sides = append(sides,
			Side{Name: "floor: the decoder alone in Node (bench/pluginfloor's walk in a GOOS=js module built as perfwire-js.wasm, " +
				"its input copied in per call)", NoSum: true, NoRatio: true, Fixed: w.nodeCalls, Timed: nodeTimed(floorMod, "walk:"+w.node)},
			Side{Name: "floor: the decoder alone natively (the same walk)", NoSum: true, NoRatio: true, Run: func(n int) uint64 {
				for range n {
					walked = w.walk(in)
				}
				return uint64(walked)
			}})
		var wazeroSide, nativeSide Side
		wazeroName := "perfwire.wasm in wazero " + wazeroVersion()
		// take copies result buffer r out of the module and frees it.
		take := func(r uint64) []byte {
			ptr, _ := h.call("buf_ptr", r)
			l, _ := h.call("buf_len", r)
			view, _ := h.mod.Memory().Read(uint32(ptr), uint32(l))
			out := bytes.Clone(view)
			h.call("free", r)
			return out
		}
		// feedIn feeds piece to session s as a host does: a buffer
		// allocated, written, passed and freed.
		feedIn := func(s uint64, piece []byte) []byte {
			hin, _ := h.call("alloc", uint64(len(piece)))
			ptr, _ := h.call("buf_ptr", hin)
			h.mod.Memory().Write(uint32(ptr), piece)
			r, err := h.call("pdu_feed", s, hin)
			h.call("free", hin)
			if err != nil {
				return nil
			}
			return take(r)
		}
		var out []byte // native results, appended into one reused buffer
		switch {
		case w.feed:
			s, err := h.call("pdu_stream", 0)
			if err != nil || s == 0 {
				return fail(fmt.Sprintf("pdu_stream: %v", err))
			}
			wazeroSide = Side{Name: wazeroName, Run: func(n int) uint64 {
				var x uint64
				for i := range n {
					if r := feedIn(s, in); i == n-1 {
						x = sum(r)
					}
				}
				return x
			}}
			ns := render.NewPDUSession(0)
			nativeSide = Side{Name: "native Go (render.PDUSession.AppendFeed)", Peer: true, Run: func(n int) uint64 {
				for range n {
					out = ns.AppendFeed(out[:0], in)
				}
				return sum(out)
			}}
		case w.stream:
			wazeroSide = Side{Name: wazeroName, Run: func(n int) uint64 {
				var x uint64
				for i := range n {
					last := i == n-1
					s, _ := h.call("pdu_stream", 0)
					for off := 0; off < len(in); off += streamChunk {
						if r := feedIn(s, in[off:min(off+streamChunk, len(in))]); last {
							x ^= sum(r)
						}
					}
					r, _ := h.call("pdu_end", s)
					if r := take(r); last {
						x ^= sum(r)
					}
					h.call("free", s)
				}
				return x
			}}
			nativeSide = Side{Name: "native Go (render.PDUSession.AppendFeed, AppendEnd)", Peer: true, Run: func(n int) uint64 {
				var x uint64
				for i := range n {
					last := i == n-1
					s := render.NewPDUSession(0)
					for off := 0; off < len(in); off += streamChunk {
						if out = s.AppendFeed(out[:0], in[off:min(off+streamChunk, len(in))]); last {
							x ^= sum(out)
						}
					}
					if out = s.AppendEnd(out[:0]); last {
						x ^= sum(out)
					}
				}
				return x
			}}
		default:
			wazeroSide = Side{Name: wazeroName, Run: func(n int) uint64 {
				var res []byte
				for range n {
					var err error
					if res, err = h.run(w.export, in, w.args...); err != nil {
						return 0
					}
				}
				return sum(res)
			}}
			nativeSide = Side{Name: "native Go (the same call, into a reused buffer)", Peer: true, Run: func(n int) uint64 {
				for range n {
					out = w.native(out[:0], in)
				}
				return sum(out)
			}}
		}
		f.Stats = compare(cfg, false, append(sides, wazeroSide, nativeSide))
		checkSums(&f)
		if w.floor {
			f.Notes = append(f.Notes, pluginFloorNote(f.Stats))
		}
		var note string
		f.Floor, note = pluginWalkFloor(f.Stats[0], f.Stats[walkAt], f.Stats[walkAt+1], f.Stats[len(f.Stats)-1], f.MinRatio)
		f.Notes = append(f.Notes, note)
		f.Notes = append(f.Notes, "Node's side is the fastest documented path a plugin author has: bindExports(instance, "+
			"perfwire, { views: true }) of wasm/js/perfwire.mjs, the wasm exports with each result read in place. "+
			"Node's side runs bench_node.mjs once per round, which times its calls itself after a warm-up of as many "+
			"calls and at least 1 s, as V8 optimises a module's code in tiers (its start-up is not counted): the wall time of the calls on their thread, comparable with native Go's thread CPU "+
			"time on an idle machine (the Node process's CPU time adds V8's compiler and collector threads, 2-3x the calls' "+
			"wall time); wazero's and native Go's results are checked equal by checksum, taken over the "+
			"results of each round's last run only, so that the timed runs do nothing besides the calls. Native Go appends each result into one "+
			"reused buffer, as a Go program would; Node's host reads each result in the module's memory "+
			"(perfwire.mjs's views). The floor rows run the call's decoder alone (bench/pluginfloor) in a module of its "+
			"own built as perfwire-js.wasm is, timed by the same bench_node.mjs, and natively; their checksums are checked equal. "+
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

// pluginFloorNote states a per-call figure's floor beside its Node and
// native medians: the floor is Node's time for the call's boundary alone
// (the input copied into a new module buffer, one empty export, the
// free), so native ÷ floor is the most the ratio could reach if the
// decoder cost nothing in Node.
func pluginFloorNote(stats []Stat) string {
	node, floor, native := stats[0], stats[1], stats[len(stats)-1]
	if node.Err != "" || floor.Err != "" || native.Err != "" || floor.Med == 0 || node.Med == 0 {
		return "Floor: not measured (a side failed)."
	}
	return fmt.Sprintf("Floor, measured in the same run: the call's boundary alone costs Node %.2f µs (its input copied "+
		"into a new module buffer, one empty export, the free), %.0f%% of Node's %.2f µs per call; native Go takes %.2f µs, "+
		"so the boundary alone would allow %.2fx. The rest of Node's time is the module's Go code.",
		floor.Med/1e3, 100*floor.Med/node.Med, node.Med/1e3, native.Med/1e3, native.Med/floor.Med)
}

// pluginWalkFloor judges a plugin figure by its decoder alone, timed in
// the same run: nodeWalk and nativeWalk are package pluginfloor's walk of
// the call's input in Node (its input copied in per call, as the call's
// is: for a per-call figure, the boundary and the decoder together) and
// natively. Their ratio is what Go's WebAssembly code does in this Node
// with no render output: when it is below the goal the figure's floor
// is that text; the note says in every case how the call's time splits.
func pluginWalkFloor(node, nodeWalk, nativeWalk, native Stat, goal float64) (floor, note string) {
	for _, st := range []Stat{node, nodeWalk, nativeWalk, native} {
		if st.Err != "" || st.Med == 0 {
			return "", "Decoder floor: not measured (a side failed)."
		}
	}
	if nodeWalk.Sum != nativeWalk.Sum {
		return "", fmt.Sprintf("Decoder floor: not valid, the walks read differently (checksum %#x in Node, %#x natively).",
			nodeWalk.Sum, nativeWalk.Sum)
	}
	walk := nativeWalk.Med / nodeWalk.Med
	note = fmt.Sprintf("Decoder floor, measured in the same run: the decoder alone (bench/pluginfloor: the same package's walk "+
		"over the same input, every value read, no output) takes Node %s per call and native Go %s, %.2fx: what Go's "+
		"WebAssembly code does in this Node. The whole call is %.2fx (%s against %s)", human(nodeWalk.Med),
		human(nativeWalk.Med), walk, native.Med/node.Med, human(node.Med), human(native.Med))
	if rn, rg := node.Med-nodeWalk.Med, native.Med-nativeWalk.Med; rn > 0 && rg > 0 {
		note += fmt.Sprintf("; the rest of it, render and the result, takes Node %s and native Go %s, %.2fx", human(rn), human(rg), rg/rn)
	}
	note += fmt.Sprintf(". With render free in Node the call would be %.2fx.", native.Med/nodeWalk.Med)
	if walk >= goal {
		return "", note + fmt.Sprintf(" The floor is above the %.1fx goal: render is what holds the call at %.2fx of the "+
			"floor's %.2fx.", goal, native.Med/node.Med, walk)
	}
	return fmt.Sprintf("The decoder alone runs at %.2fx native Go in this Node (%s against %s per call), below the %.1fx "+
		"goal before render writes a byte: per call, Go's WebAssembly code costs this Node %.1f times native Go's time.",
		walk, human(nodeWalk.Med), human(nativeWalk.Med), goal, 1/walk), note
}

// pluginRule ends each plugin figure's miss text (misses.go): the rule
// its floor rows measure.
const pluginRule = "The rule the floor rows measure: per call, Go's WebAssembly code costs this Node several times " +
	"native Go's time (each figure's floor rows give this run's ratio), on the decode walk as " +
	"on render (each call spills to Go's stack in linear memory, bounds checks stay, no SIMD), so a cut in render " +
	"alone cannot lift a call above its decoder's ratio, and a cut that removes work speeds native Go about as " +
	"much. Build options measured: GOWASM=satconv,signext changes neither speed nor size; profile-guided " +
	"optimisation on a native profile of the throughput calls (`go run . -pgo FILE`) makes the js module 5-18 % " +
	"faster in Node but adds 20 KB gzip -9, past its 250 KB budget."
