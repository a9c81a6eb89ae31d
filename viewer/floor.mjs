// The floor under the viewer's load time, for bench/viewerratio.go: the
// worker's decode of a dlt-kpi capture alone, with the module the viewer
// ships, in Node's V8 (the engine of Chromium), without a page, a worker,
// messages or charts. Prints, as JSON, the seconds from the process's
// start to the module started and to the capture decoded:
//
//   node floor.mjs WASM_EXEC_JS perfwire.wasm CAPTURE
//
// As the worker does, it feeds the capture to a KPI stream session in
// 64 KB pieces, reads each step's result in place, ends the session and
// reads its process table.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import { bindExports } from "../wasm/js/perfwire.mjs";

const [wasmExec, modulePath, capture] = process.argv.slice(2);
createRequire(import.meta.url)(wasmExec);
const go = new Go();
const { instance } = await WebAssembly.instantiate(readFileSync(modulePath), go.importObject);
go.run(instance);
const pw = bindExports(instance, globalThis.perfwire, { views: true });
const started = performance.now();
const data = new Uint8Array(readFileSync(capture));
const t0 = performance.now();
const s = pw.kpiStream(0);
let out = 0;
for (let at = 0; at < data.length; at += 64 << 10) out += pw.kpiFeed(s, data.subarray(at, at + (64 << 10))).length;
out += pw.kpiEnd(s).length;
out += pw.kpiTable(s).length;
pw.kpiClose(s);
const done = performance.now();
// performance.now() counts from the process's start.
console.log(JSON.stringify({ startSeconds: started / 1000, decodeSeconds: (done - t0) / 1000, totalSeconds: done / 1000, bytes: data.length, out }));
