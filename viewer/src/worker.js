// The viewer's decoder: runs perfwire's js/wasm module off the main
// thread. It reads a capture piece by piece (a File's or a fetch
// response's stream), feeds each piece to a KPI stream session, and posts
// what the pieces yield as columnar batches of typed arrays, transferred,
// never copied. The page never sees the capture's bytes.
import { decode } from "@msgpack/msgpack";
import { detect } from "./detect.js";

let ready = null;

function load() {
	if (!ready) {
		ready = (async () => {
			importScripts("wasm_exec.js"); // Go's glue: defines Go
			const go = new Go();
			const { instance } = await WebAssembly.instantiateStreaming(fetch("perfwire.wasm"), go.importObject);
			go.run(instance); // main installs self.perfwire and waits for calls
			if (self.perfwire.abiVersion !== 3) throw new Error("unexpected ABI " + self.perfwire.abiVersion);
			return self.perfwire;
		})();
	}
	return ready;
}

// A job is one file being decoded; opening another cancels it.
let current = 0;
const BATCH_MS = 100; // post a batch at most this often while decoding
const TABLE_MS = 1000; // a live stream has no end: send the table this often

// Columns collects one batch: per ACT group its time and how many
// processes it listed; per process in it, the pid and its CPU in ‰.
class Columns {
	constructor() { this.reset(); }
	reset() {
		this.times = []; this.counts = []; this.pids = []; this.cpu = [];
	}
	add(samples) {
		for (const s of samples) {
			this.times.push(s.tmsp / 10000);
			this.counts.push(s.pids.length);
			for (let i = 0; i < s.pids.length; i++) {
				this.pids.push(s.pids[i]);
				this.cpu.push(Number(s.cpu[i]));
			}
		}
	}
	take() {
		const b = {
			times: Float64Array.from(this.times), counts: Uint32Array.from(this.counts),
			pids: Int32Array.from(this.pids), cpu: Uint16Array.from(this.cpu),
		};
		this.reset();
		return b;
	}
	get empty() { return this.times.length === 0; }
}

// post sends msg with batch's columns, if any, moved rather than copied.
function post(msg, batch) {
	if (batch) Object.assign(msg, batch);
	self.postMessage(msg, batch ? [batch.times.buffer, batch.counts.buffer, batch.pids.buffer, batch.cpu.buffer] : []);
}

async function run(job, source) {
	const t0 = performance.now();
	const total = source.size;
	const reader = source.stream.getReader();
	const first = await reader.read();
	if (job !== current) return reader.cancel();
	const head = first.done ? new Uint8Array(0) : first.value;
	const fmt = detect(head);
	if (fmt.view !== "kpi") {
		reader.cancel();
		post({ type: "error", job, format: fmt.name, message: fmt.message });
		return;
	}
	const pw = await load();
	const s = pw.kpiStream(fmt.framing);
	const cols = new Columns();
	// A stream of unknown size (perfwire serve's live relay) may never end:
	// the page then gets the process table every TABLE_MS as well.
	const live = !total;
	let fed = 0, last = performance.now(), lastTable = last, step = null;
	const feed = (u8) => {
		fed += u8.length;
		step = decode(pw.kpiFeed(s, u8));
		cols.add(step.samples);
	};
	try {
		if (!first.done) feed(head);
		for (;;) {
			const now = performance.now();
			if (now - last >= BATCH_MS) {
				last = now;
				const secs = (now - t0) / 1000;
				const msg = { type: "progress", job, fed, total, bytesPerSec: fed / secs, messages: step ? step.messages : 0 };
				if (live && now - lastTable >= TABLE_MS) {
					lastTable = now;
					msg.table = decode(pw.kpiTable(s));
				}
				post(msg, cols.empty ? null : cols.take());
			}
			const { value, done } = await reader.read();
			if (job !== current) { reader.cancel(); return; }
			if (done) break;
			feed(value);
		}
		step = decode(pw.kpiEnd(s));
		cols.add(step.samples);
		const table = decode(pw.kpiTable(s));
		const secs = (performance.now() - t0) / 1000;
		post({ type: "done", job, fed, total, bytesPerSec: fed / secs, seconds: secs, messages: step.messages,
			table, error: step.error || table.error || null }, cols.empty ? null : cols.take());
	} finally {
		pw.kpiClose(s);
	}
}

self.onmessage = async (e) => {
	const m = e.data;
	if (m.type === "cancel") { current = 0; return; }
	if (m.type !== "open") return;
	current = m.job;
	try {
		let source;
		if (m.file) {
			source = { stream: m.file.stream(), size: m.file.size };
		} else {
			const resp = await fetch(m.url);
			if (!resp.ok) throw new Error(`${m.url}: HTTP ${resp.status} ${resp.statusText}`);
			source = { stream: resp.body, size: Number(resp.headers.get("content-length")) || 0 };
		}
		await run(m.job, source);
	} catch (err) {
		if (m.job === current) post({ type: "error", job: m.job, message: String(err && err.message || err) });
	}
};
