// Throughput of the GOOS=js module in Node (V8) on the captures of
// wasm/testdata, for the plugin speed figures: MB/s per call, and the
// per-call time of one PDU fed to a PDU stream session. Compare with
// `go test -bench . ./wasm/plugin` (native and wazero).
//
//   GOOS=js GOARCH=wasm go build -o /tmp/pw-js.wasm ./wasm/js
//   node wasm/js/bench_node.mjs "$(go env GOROOT)/lib/wasm/wasm_exec.js" /tmp/pw-js.wasm wasm/testdata
//
// With a workload (kpi, pdu, mmv or feed) and a count after them, it runs
// that workload count times after as many warm-up calls and prints only
// the process's CPU time and the elapsed time, in nanoseconds: the bench
// harness's plugin figures drive it so.
// The workloads stream (a PDU stream fed to pduFeed in 64 KB pieces,
// through a new session each time) and mmvlarge (mmvRead) take their
// input file after the count. walk:W, given the floor module
// (bench/pluginfloor/module) instead of perfwire-js.wasm, times workload
// W's decoder alone and prints its checksum third.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { bindExports } from "./perfwire.mjs";

const [wasmExec, modulePath, testdata, only, count, file] = process.argv.slice(2);
createRequire(import.meta.url)(wasmExec);
const go = new Go();
const { instance } = await WebAssembly.instantiate(readFileSync(modulePath), go.importObject);
go.run(instance);
const input = (name) => new Uint8Array(readFileSync(join(testdata, name)));

// warmMs is the least warm-up of a timed workload: V8 compiles a
// module's code in tiers, and the optimised code of the calls' and the
// walks' functions comes later than a few thousand calls (pdu's walk
// took 30-40 µs a call after 2,500 warm-up calls, 9-11 µs after 20,000,
// pduDecode 45-58 and 38-41 µs; Node's process CPU time, well above
// the calls' wall time, is V8's compiler still at work).
const warmMs = 1000;

// runTimed runs f count times after as many warm-up calls (and for at
// least warm ms) and prints the process's CPU time (user and system,
// every thread) and the wall time, in nanoseconds, then what the last
// call returned, if anything.
const runTimed = (f, warm = warmMs) => {
	const until = process.hrtime.bigint() + BigInt(warm * 1e6);
	for (let i = 0; i < Number(count) || process.hrtime.bigint() < until; i++) f(); // warm-up: V8 tiers up
	const c0 = process.cpuUsage();
	const t0 = process.hrtime.bigint();
	let r;
	for (let i = 0; i < Number(count); i++) r = f();
	const wall = process.hrtime.bigint() - t0;
	const c = process.cpuUsage(c0);
	console.log(`${(c.user + c.system) * 1000} ${wall}` + (r === undefined ? "" : ` ${r}`));
};

// walk:W runs workload W's decode walk alone in the floor module
// (bench/pluginfloor/module, given as the module): each call copies the
// input into the module's buffer, as a call of the plugin does, and
// walks it with no render output, returning the walk's checksum.
if (only?.startsWith("walk:")) {
	const [fn, data] = {
		kpi: ["walk_kpi", () => input("kpi-odd.dlt")],
		pdu: ["walk_pdu", () => input("conv05.server.bin")],
		feed: ["walk_pdu", () => input("conv05.server.bin").subarray(152, 152 + 312)],
		mmv: ["walk_mmv", () => input("sample2.mmv")],
		stream: ["walk_pdu", () => new Uint8Array(readFileSync(file))],
		mmvlarge: ["walk_mmv", () => new Uint8Array(readFileSync(file))],
	}[only.slice(5)];
	const ex = instance.exports, walk = ex[fn], b = data();
	runTimed(() => {
		const p = ex.floor_in(b.length) >>> 0;
		new Uint8Array(ex.mem.buffer, p, b.length).set(b);
		return walk() >>> 0;
	});
	process.exit(0);
}

// The functions over the wasm exports, as hosts call them (perfwire.mjs),
// each result a view of the module's memory: the workloads drop each at
// once, as the native side reuses its one buffer (a copy of each result
// would be a quarter to a third of Node's time on large ones).
const pw = bindExports(instance, globalThis.perfwire, { views: true });

const kpi = input("kpi-odd.dlt");
const pdus = input("conv05.server.bin");
const mmv = input("sample2.mmv");
// The first HIGHRES_RESULT of the stream: offset 152, 312 bytes.
const one = pdus.subarray(152, 152 + 312);
const s = pw.pduStream(0);
const workloads = {
	kpi: ["kpiDecode kpi-odd.dlt", kpi.length, () => pw.kpiDecode(kpi, 0)],
	pdu: ["pduDecode conv05.server.bin", pdus.length, () => pw.pduDecode(pdus, 0)],
	mmv: ["mmvRead sample2.mmv", mmv.length, () => pw.mmvRead(mmv, 0)],
	feed: ["pduFeed one RESULT PDU", one.length, () => pw.pduFeed(s, one)],
};
if (file) {
	const big = new Uint8Array(readFileSync(file));
	workloads.stream = ["pduFeed 64 KB pieces of " + file, big.length, () => {
		const st = pw.pduStream(0);
		for (let off = 0; off < big.length; off += 65536) pw.pduFeed(st, big.subarray(off, off + 65536));
		pw.pduEnd(st);
		pw.close(st);
	}];
	workloads.mmvlarge = ["mmvRead " + file, big.length, () => pw.mmvRead(big, 0)];
}

// floor:W is workload W's fixed cost across the boundary with none of its
// work: its input copied into a new module buffer, one export that does
// nothing (abi_version), the buffer freed. A per-call figure's Node time
// cannot go below it, whatever the decoder costs.
const ex = instance.exports;
for (const [w, input] of [["kpi", kpi], ["pdu", pdus], ["mmv", mmv], ["feed", one]]) {
	workloads["floor:" + w] = ["boundary alone, " + input.length + " bytes in", input.length, () => {
		const h = ex.alloc(input.length) >>> 0;
		new Uint8Array(ex.mem.buffer).set(input, ex.buf_ptr(h) >>> 0);
		ex.abi_version();
		ex.free(h);
	}];
}

if (only) {
	const f = workloads[only][2];
	// The boundary alone is a few exports: no long warm-up.
	runTimed(() => { f(); }, only.startsWith("floor:") ? 0 : warmMs);
} else {
	// time runs f for about a second after a warm-up and returns ns per call.
	const time = (f) => {
		for (let i = 0; i < 20; i++) f();
		let n = 0;
		const t0 = process.hrtime.bigint();
		let t = t0;
		while (t - t0 < 1000000000n) {
			for (let i = 0; i < 10; i++) f();
			n += 10;
			t = process.hrtime.bigint();
		}
		return Number(t - t0) / n;
	};
	for (const [name, bytes, f] of Object.values(workloads)) {
		const ns = time(f);
		console.log(`${name}\t${ns.toFixed(0)} ns/op\t${(bytes / ns * 1000).toFixed(2)} MB/s`);
	}
}
pw.close(s);
