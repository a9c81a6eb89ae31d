// A minimal host for perfwire.wasm (wasip1) in Node: runs pdu_decode on
// a file and writes the MessagePack result to stdout.
//   node host.mjs perfwire.wasm STREAM.bin > result.msgpack
import { readFileSync, writeSync } from "node:fs";
import { WASI } from "node:wasi";

const [wasmPath, inputPath] = process.argv.slice(2);
const wasi = new WASI({ version: "preview1", returnOnExit: true });
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), wasi.getImportObject());
wasi.initialize(instance); // a reactor: runs _initialize once
const pw = instance.exports;
if (pw.abi_version() !== 4) throw new Error("ABI " + pw.abi_version());

const input = readFileSync(inputPath);
const h = pw.alloc(input.length) >>> 0; // u32: read with >>> 0
if (h === 0) throw new Error("alloc failed");
new Uint8Array(pw.memory.buffer, pw.buf_ptr(h) >>> 0, input.length).set(input);
const r = pw.pdu_decode(h, 0) >>> 0; // limit 0: the default
pw.free(h);
// memory may have grown during the call: take a new view after it.
const out = new Uint8Array(pw.memory.buffer, pw.buf_ptr(r) >>> 0, pw.buf_len(r) >>> 0).slice();
pw.free(r);
writeSync(1, out);
