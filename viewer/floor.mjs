// The floor under the viewer's load time, for bench/viewerratio.go: the
// worker's decode of a dlt-kpi capture alone, with the module the viewer
// ships, in Node's V8 (the engine of Chromium), without a page, a worker,
// messages or charts. Prints, as JSON, its parts in seconds, each timed
// on its own in this one run:
//
//   node floor.mjs WASM_EXEC_JS perfwire.wasm CAPTURE
//
// startSeconds, from the process's start to the module started, is
// compileSeconds (WebAssembly.compile of its bytes) and runSeconds
// (instantiating it and Go's runtime starting until main has installed
// its calls) and Node's own start before them. Then, as the worker does,
// it feeds the capture to a KPI stream session in 64 KB pieces, ends the
// session and reads its process table: wasmSeconds is the time in the
// module's calls (the decode proper), readSeconds the time reading each
// step's result in place into the worker's columns (step.js, columns.js);
// decodeSeconds is both together.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import { bindExports } from "../wasm/js/perfwire.mjs";
import { readStep } from "./src/step.js";
import { Columns } from "./src/columns.js";

const [wasmExec, modulePath, capture] = process.argv.slice(2);
createRequire(import.meta.url)(wasmExec);
const go = new Go();
go.env = { ...go.env, GOGC: "200" }; // as the worker starts it
const bytes = readFileSync(modulePath);
const c0 = performance.now();
const module = await WebAssembly.compile(bytes);
const c1 = performance.now();
const instance = await WebAssembly.instantiate(module, go.importObject);
go.run(instance);
const started = performance.now();
const pw = bindExports(instance, globalThis.perfwire, { views: true });
const data = new Uint8Array(readFileSync(capture));
let wasm = 0, read = 0;
const cols = new Columns();
// call times one of the module's calls, then the read of its result.
const call = (f) => {
	const t0 = performance.now();
	const res = f();
	const t1 = performance.now();
	readStep(res, cols);
	const t2 = performance.now();
	wasm += t1 - t0; read += t2 - t1;
};
const t0 = performance.now();
const s = pw.kpiStream(0);
for (let at = 0; at < data.length; at += 64 << 10) call(() => pw.kpiFeed(s, data.subarray(at, at + (64 << 10))));
call(() => pw.kpiEnd(s));
const t1 = performance.now();
const out = pw.kpiTable(s).length;
wasm += performance.now() - t1;
pw.kpiClose(s);
const groups = cols.take().times.length;
const done = performance.now();
// performance.now() counts from the process's start.
console.log(JSON.stringify({ startSeconds: started / 1000, compileSeconds: (c1 - c0) / 1000, runSeconds: (started - c1) / 1000,
	decodeSeconds: (done - t0) / 1000, wasmSeconds: wasm / 1000, readSeconds: read / 1000, totalSeconds: done / 1000,
	bytes: data.length, out, groups }));
