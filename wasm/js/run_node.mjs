// Loads the GOOS=js module in Node with Go's wasm_exec.js and writes the
// raw MessagePack result of every call to OUTDIR, for the Go test to
// compare with the native results. PATH is "syscall" for the perfwire
// object's functions, "exports" for the same functions over the wasm
// exports (perfwire.mjs), "views" for those functions returning views of
// the module's memory (each result is written out before the next call).
//
//   node run_node.mjs WASM_EXEC_JS MODULE.wasm TESTDATA OUTDIR PATH
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { bindExports } from "./perfwire.mjs";

const [wasmExec, modulePath, testdata, outdir, path] = process.argv.slice(2);
createRequire(import.meta.url)(wasmExec); // defines globalThis.Go

const go = new Go();
const { instance } = await WebAssembly.instantiate(readFileSync(modulePath), go.importObject);
go.run(instance); // main installs globalThis.perfwire, then waits
if (!globalThis.perfwire) throw new Error("perfwire global missing");
const pw = {
	syscall: () => globalThis.perfwire,
	exports: () => bindExports(instance, globalThis.perfwire),
	views: () => bindExports(instance, globalThis.perfwire, { views: true }),
}[path]();

const out = (name, u8) => {
	if (!(u8 instanceof Uint8Array)) throw new Error(name + ": not a Uint8Array");
	writeFileSync(join(outdir, name), u8);
};
const input = (name) => new Uint8Array(readFileSync(join(testdata, name)));

// isDone finds the MessagePack pair "done": true (fixstr, 0xc3) in a
// step result, which needs no MessagePack library.
const doneKey = [0xa4, ...new TextEncoder().encode("done"), 0xc3];
const isDone = (u8) => u8.some((_, i) => doneKey.every((b, j) => u8[i + j] === b));

writeFileSync(join(outdir, "abi_version"), String(pw.abiVersion));
for (const name of ["kpi-odd.dlt", "excerpt-irq-strtok-race.dlt", "kpi-huge-argv0.dlt"]) {
	const data = input(name);
	out(name + ".decode", pw.kpiDecode(data, 0));
	const s = pw.kpiOpen(data);
	for (let i = 0; i < 100000; i++) {
		const r = pw.kpiStep(s, 37);
		out(`${name}.step${i}`, r);
		if (isDone(r)) break;
	}
	out(name + ".table", pw.kpiTable(s));
	const st = pw.kpiStream(0);
	for (let off = 0, i = 0; off < data.length; off += 1000, i++) {
		out(`${name}.feed${i}`, pw.kpiFeed(st, data.subarray(off, off + 1000)));
	}
	out(name + ".end", pw.kpiEnd(st));
	pw.kpiClose(st);
	pw.kpiClose(s);
	out(name + ".closed", pw.kpiTable(s));
}
const enc = new TextEncoder();
out("labels.canon", pw.labelsCanon(enc.encode(readFileSync(join(testdata, "parse-10.json"), "utf8").trim())));
out("events.decode", pw.eventsDecode(input("conv05.pdu0.HIGHRES_RESULT.29.0.139.inst0.HIGHRES_EVENT.bin")));
out("pdu.decode", pw.pduDecode(input("conv01.server.bin")));
out("mmv.read", pw.mmvRead(input("sample2.mmv"), 0));
out("bad.decode", pw.eventsDecode("not bytes"));
out("bad.framing", new Uint8Array([pw.kpiStream(7), pw.kpiStream("x"), pw.pduStream(-1)]));
const garbage = new TextEncoder().encode("DLT\x01 garbage, not any format ".repeat(20));
for (const f of ["kpiDecode", "pduDecode", "eventsDecode", "labelsCanon", "labelsMerge", "mmvRead", "mmvServe", "dltDecode"]) {
	out("garbage." + f, pw[f](garbage, 0));
}
const ps = pw.pduStream(0);
const pdus = input("conv05.server.bin");
for (let off = 0, i = 0; off < pdus.length; off += 7, i++) out(`pdu.feed${i}`, pw.pduFeed(ps, pdus.subarray(off, off + 7)));
out("pdu.end", pw.pduEnd(ps));
pw.close(ps);
if (path === "exports") {
	// Memory over many calls: the exports run without a yield (see
	// wasm/internal/exports), so the collector must keep up on its own.
	const one = pdus.subarray(152, 152 + 312); // the first HIGHRES_RESULT
	const s = pw.pduStream(0);
	for (let i = 0; i < 20000; i++) {
		pw.pduFeed(s, one);
		pw.kpiDecode(garbage, 0);
	}
	pw.close(s);
	writeFileSync(join(outdir, "memory"), String(instance.exports.mem.buffer.byteLength));
}
console.log("node: all calls returned");
