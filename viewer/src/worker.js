// The viewer's decoder: runs perfwire's js/wasm module off the main
// thread. It reads a capture piece by piece (a File's or a fetch
// response's stream) and feeds each piece to a stream session of the
// format detect() recognised: a dlt-kpi capture's pieces yield columnar
// batches of typed arrays, transferred, never copied; a PCP PDU stream's
// PDUs are gathered into metrics (pcp.js); an MMV file is read whole. The
// page never sees the capture's bytes.
import { decode, encode } from "@msgpack/msgpack";
import { detect } from "./detect.js";
import { ArchiveStore } from "./archive.js";
import { PCPStream } from "./pcp.js";
import { text } from "./text.js";
import { readStep } from "./step.js";
import { Grow } from "./series.js";
import { Columns } from "./columns.js";
import { bindExports } from "../../wasm/js/perfwire.mjs";

let ready = null;

// wasmBytes are the module's bytes the page fetched (its first message),
// or null if it has none.
let gotModule;
const wasmBytes = new Promise((ok) => { gotModule = ok; });

function load() {
	if (!ready) {
		ready = (async () => {
			importScripts("wasm_exec.js"); // Go's glue: defines Go
			const go = new Go();
			// Go's collector runs half as often as by default: a
			// capture's pieces are allocated and dropped at a high rate
			// while the live heap stays small, so at GOGC=100 it marked
			// (its write barriers on) much of the time. 200 decoded a
			// 100 MB capture 10-70 % faster in Node's V8 on this host, for
			// 10-25 MB more of wasm memory.
			go.env = { ...go.env, GOGC: "200" };
			const bytes = await wasmBytes;
			const instance = bytes ? (await WebAssembly.instantiate(bytes, go.importObject)).instance
				: (await WebAssembly.instantiateStreaming(fetch("perfwire.wasm"), go.importObject)).instance;
			go.run(instance); // main installs self.perfwire and waits for calls
			if (self.perfwire.abiVersion !== 4) throw new Error("unexpected ABI " + self.perfwire.abiVersion);
			// The same calls over the module's wasm exports: a plain
			// WebAssembly call each, not a resumption of Go's event loop.
			const pw = bindExports(instance, self.perfwire);
			// The KPI steps are read at once (readStep copies what it
			// keeps): as views of the module's memory, not copied out.
			pw.views = bindExports(instance, self.perfwire, { views: true });
			return pw;
		})();
	}
	return ready;
}

// The module is compiled and started as soon as the worker is, not when
// the first file is opened: V8 takes half a second or more over the
// 4.6 MB module, time that otherwise came between choosing a file and its
// first bytes decoded. A module that fails to load says so when a file
// is opened (the same promise rejects).
// started is when the module had started, on the worker's clock, and
// warmed how many bytes the warm-up decoded before a file was opened: a
// load's stats say how warm the module was.
let started = 0, warmed = 0;
load().then((pw) => { started = performance.now(); return warm(pw); }).then(() => self.postMessage({ type: "ready" }), () => {});

// warm decodes a small real capture (warm.dlt, dlt-kpi's 160 KB of the
// testdata) WARM_ROUNDS times while no file has been opened, a piece per
// task, so that a file opened meanwhile waits for one piece at most. V8
// compiles the module's functions when they first run, with its baseline
// compiler, and optimises those that run hot on another thread: the
// first file opened paid for both, about 1.6 s of the optimising
// compiler's time on a 100 MB capture, on the core the page draws with.
// Four rounds left much of that to the first file: a 100 MB capture
// opened on a ready page decoded 0.4 s faster after 24 rounds than after
// 4, and 0.6 s faster after 64 (the page ready 1 and 2 s later). Each
// round ends with the process table read as a file's is, so that its
// MessagePack reader is warm too.
const WARM_ROUNDS = 48;
// WARM_PIECE is a warm-up task's piece: the first ones run while V8
// still compiles the module's functions on their first calls, and a
// 64 KB piece took 40 ms then, a wait for a file opened meanwhile; the
// decoder's code paths are the same for 16 KB.
const WARM_PIECE = 16 << 10;
// The warm-up capture is fetched as the worker starts, beside the module.
const warmBytes = fetch("warm.dlt").then((r) => (r.ok ? r.arrayBuffer() : null)).catch(() => null);
// nextTask resolves in a task of its own. Not a timer: from the fifth
// nested setTimeout on, each waits 4 ms, and a warm piece takes 1-2 ms
// once V8 has optimised it.
const taskChannel = new MessageChannel();
const nextTask = () => new Promise((ok) => { taskChannel.port1.onmessage = ok; taskChannel.port2.postMessage(0); });
async function warm(pw) {
	const buf = await warmBytes;
	if (!buf) return; // no warm-up: the first file is decoded colder
	const bytes = new Uint8Array(buf);
	for (let round = 0; round < WARM_ROUNDS && !current; round++) {
		const s = pw.kpiStream(0), cols = new Columns();
		try {
			for (let at = 0; at < bytes.length && !current; at += WARM_PIECE) {
				readStep(pw.views.kpiFeed(s, bytes.subarray(at, at + WARM_PIECE)), cols);
				warmed += Math.min(WARM_PIECE, bytes.length - at);
				await nextTask();
			}
			readStep(pw.views.kpiEnd(s), cols);
			cols.take();
			decode(pw.kpiTable(s));
		} finally {
			pw.kpiClose(s);
		}
	}
}

// A job is one file being decoded; opening another cancels it.
let current = 0;
const BATCH_MS = 100; // post a batch at most this often while decoding
// A file's first batch, with its process table, goes sooner: the first
// screen (table and CPU chart) is drawn from it while the rest decodes.
const FIRST_BATCH_MS = 25;
// A piece read (a File's stream gives 2 MB) is fed to the module in
// pieces of PIECE bytes: the module's result for 2 MB (450 KB of
// MessagePack) cost more to write and copy out than 32 results of 64 KB
// (a 100 MB capture decoded at 48 against 62 MB/s in Node's V8).
const PIECE = 64 << 10;
const TABLE_MS = 1000; // a live stream has no end: send the table this often
// A file's process table goes with its first batch, so that the first
// screen (table and CPU chart) is there before the file is decoded; then
// every FILE_TABLE_MS, but only while the worker waits for the file more
// than it decodes (a slow download): the page redraws the table and the
// CPU chart with each, and on a two-core machine that work slowed a
// 100 MB capture read at full speed by a fifth to a third.
const FILE_TABLE_MS = 2000;
let liveWindow = 600; // seconds of a live stream's values kept (the page sets it)

// pieces returns a reader of stream's bytes: a byte stream's (a File's,
// a fetch response's) read into two buffers of the reader's own, used in
// turn; else what the stream's own reader reads (the stream held while
// it reads, as a byte stream is: see reading). The default reader of a File's
// stream allocated a new 2 MB ArrayBuffer per read and took 12 ms in
// each call to read(): 0.6 s of the worker's time over a 100 MB capture,
// against 0.1 s for the same bytes read into reused buffers. A piece is
// valid until the next but one call of read(): run reads the next piece
// before it feeds one, and every consumer copies what it keeps.
const READ_BUFFER = 1 << 20;

// reading holds each stream while a read of it is pending. Otherwise only
// its reader and the pending read hold it, and Chromium collected a
// File's stream with a BYOB read pending, a read that then never settled:
// the load stayed at "reading …" for good. Loads of an archive's five
// files, one after another, hung so in 19 of 220, at any of the files,
// and in none of 120 with the streams held. A stream that is not a byte
// stream (a .gz volume through DecompressionStream) is held the same way:
// it holds the pipe from the File's stream.
const reading = new Set();

function pieces(stream) {
	let byob, plain;
	try {
		byob = stream.getReader({ mode: "byob" });
	} catch {
		plain = stream.getReader(); // not a byte stream
	}
	const bufs = byob && [new ArrayBuffer(READ_BUFFER), new ArrayBuffer(READ_BUFFER)];
	let turn = 0;
	return {
		async read() {
			reading.add(stream);
			try {
				if (plain) return await plain.read();
				const i = turn;
				turn ^= 1;
				const r = await byob.read(new Uint8Array(bufs[i]));
				// The buffer read into was moved into the piece: its
				// memory comes back as the piece's buffer.
				bufs[i] = r.value ? r.value.buffer : new ArrayBuffer(READ_BUFFER);
				return r;
			} finally {
				reading.delete(stream);
			}
		},
		cancel: (why) => (byob || plain).cancel(why),
	};
}

// Reconnecting reads a live stream (a URL without a length: perfwire
// serve's relays) that outlives its server: when the stream breaks (serve
// went away), it tells the page and fetches the URL again every RETRY_MS
// until it answers or the job is cancelled; read() then returns the new
// stream's pieces, the first with fresh set, so that the caller ends the
// old input. A stream that ends cleanly has ended.
const RETRY_MS = 1000;
class Reconnecting {
	constructor(job, url, reader) { this.job = job; this.url = url; this.reader = reader; }
	async read() {
		let err;
		try {
			return await this.reader.read();
		} catch (e) {
			err = e;
		}
		for (let attempt = 1; ; attempt++) {
			post({ type: "reconnecting", job: this.job, attempt, message: String(err && err.message || err) });
			await new Promise((ok) => setTimeout(ok, RETRY_MS));
			if (this.job !== current) return { done: true };
			try {
				const resp = await fetch(this.url, { cache: "no-store" });
				if (!resp.ok) {
					err = new Error(`HTTP ${resp.status} ${resp.statusText}: ${(await resp.text()).trim().slice(0, 300)}`);
					continue;
				}
				this.reader = pieces(resp.body);
			} catch (e) {
				err = e;
				continue;
			}
			post({ type: "reconnected", job: this.job, attempt });
			const r = await this.read();
			return r.done ? r : { ...r, fresh: true };
		}
	}
	cancel() { return this.reader.cancel(); }
}

// post sends msg with batch's columns, if any, the typed arrays moved
// rather than copied.
function post(msg, batch) {
	if (batch) Object.assign(msg, batch);
	self.postMessage(msg, batch ? ["times", "counts", "pids", "cpu", "rss", "ctx", "io", "irqT", "irqRate", "irqKey",
		"endPid", "endPpid", "endFlags", "endFirst", "endLast", "endAt"].map((k) => batch[k].buffer) : []);
}

async function run(job, source) {
	const t0 = performance.now();
	const total = source.size;
	const reader = pieces(source.stream);
	const first = await reader.read();
	if (job !== current) return reader.cancel();
	const head = first.done ? new Uint8Array(0) : first.value;
	const fmt = detect(head);
	if (fmt.view === "mmv") return runMMV(job, reader, head, t0);
	if (fmt.view === "pdu") return runPDU(job, reader, head, t0, total, source.url);
	if (fmt.view === "archive") {
		if (source.url) return runArchiveURL(job, source.url, reader, head, t0);
		reader.cancel();
		post({ type: "error", job, format: fmt.name, message: "a PCP archive is several files: open its BASE.meta, BASE.index and " +
			"BASE.0, BASE.1 … together (select them all, or drop them at once)" });
		return;
	}
	if (fmt.view !== "kpi") {
		reader.cancel();
		post({ type: "error", job, format: fmt.name, message: fmt.message });
		return;
	}
	// parts: where the worker's time goes, in ms (the figure's breakdown):
	// waiting for the module to start, in the module's calls, reading
	// their results into columns and posting them, waiting for the input.
	const parts = { module: 0, wasm: 0, read: 0, input: 0 };
	let tm = performance.now();
	const pw = await load();
	parts.module = performance.now() - tm;
	let s = pw.kpiStream(fmt.framing);
	const cols = new Columns();
	// A stream of unknown size (perfwire serve's live relay) may never end:
	// the page then gets the process table every TABLE_MS as well, and a
	// relay that goes away is fetched again.
	const live = !total;
	const rd = live && source.url ? new Reconnecting(job, source.url, reader) : reader;
	// Neither a live stream nor a serial capture is read again for the
	// message log: it is kept as they are decoded.
	let keep = live || fmt.framing === 1 ? new LogKeeper(pw, fmt.framing) : null;
	let fed = 0, last = performance.now(), lastTable = -Infinity, step = null;
	let waited = 0; // ms spent waiting for the input since the table was last sent
	// tableDue says whether the batch posted at now takes the table.
	const tableDue = (now) => {
		if (cols.empty) return false;
		if (lastTable === -Infinity) return true;
		if (live) return now - lastTable >= TABLE_MS;
		return now - lastTable >= FILE_TABLE_MS && waited > (now - lastTable) / 2;
	};
	const feed = (u8) => {
		for (let at = 0; at < u8.length; at += PIECE) feedPiece(u8.subarray(at, at + PIECE));
	};
	const feedPiece = (u8) => {
		fed += u8.length;
		if (keep) keep.add(u8);
		const w0 = performance.now();
		const res = pw.views.kpiFeed(s, u8);
		const w1 = performance.now();
		step = readStep(res, cols);
		parts.wasm += w1 - w0;
		parts.read += performance.now() - w1;
		if (keep) keep.upTo(step.offset);
	};
	try {
		// The next piece is asked for before this one is decoded, so that
		// the browser reads the file while the module decodes.
		let next = first.done ? first : rd.read();
		if (!first.done) feed(head);
		for (;;) {
			const now = performance.now();
			if (now - last >= (lastTable === -Infinity && !live ? FIRST_BATCH_MS : BATCH_MS)) {
				last = now;
				const secs = (now - t0) / 1000;
				const msg = { type: "progress", job, fed, total, bytesPerSec: fed / secs, messages: step ? step.messages : 0 };
				if (tableDue(now)) {
					lastTable = now;
					waited = 0;
					msg.table = decode(pw.kpiTable(s));
				}
				post(msg, cols.empty ? null : cols.take());
				if (keep) keep.post(job, false, fed, total);
				parts.read += performance.now() - now;
			}
			const w0 = performance.now();
			const { value, done, fresh } = await next;
			const w = performance.now() - w0;
			waited += w;
			parts.input += w;
			if (job !== current) { rd.cancel(); return; }
			if (done) break;
			next = rd.read();
			if (fresh) {
				// The relay again: the old input ends (kpi_cut; the
				// processes carry on) and a new one starts; a record the
				// break cut off ends the session, and a new one starts.
				step = readStep(pw.views.kpiCut(s), cols);
				if (keep) { keep.end(); keep.post(job, false, fed, total); keep = new LogKeeper(pw, fmt.framing); }
				if (step.done) { pw.kpiClose(s); s = pw.kpiStream(fmt.framing); }
			}
			feed(value);
		}
		tm = performance.now();
		const end = pw.views.kpiEnd(s);
		parts.wasm += performance.now() - tm;
		step = readStep(end, cols);
		if (keep) { keep.end(); keep.post(job, true, fed, total); }
		tm = performance.now();
		const tableBytes = pw.kpiTable(s);
		parts.wasm += performance.now() - tm;
		const table = decode(tableBytes);
		const secs = (performance.now() - t0) / 1000;
		post({ type: "done", view: "kpi", job, fed, total, bytesPerSec: fed / secs, seconds: secs, messages: step.messages,
			table, parts, warm: { bytes: warmed, before: started && started < t0 ? (t0 - started) / 1000 : 0 }, error: step.error || step.skip_error || table.error || null }, cols.empty ? null : cols.take());
	} finally {
		pw.kpiClose(s);
	}
}

// readAll collects the rest of a stream after its first piece, copied
// (a piece of pieces() is soon read into again).
async function readAll(job, reader, head) {
	const all = new Grow(Uint8Array);
	all.push(head);
	for (;;) {
		const { value, done } = await reader.read();
		if (job !== current) { reader.cancel(); return null; }
		if (done) break;
		all.push(value);
	}
	return all.view;
}

// runMMV reads an MMV file whole (they are small: a process's metrics)
// and posts what mmv_read reports.
async function runMMV(job, reader, head, t0) {
	const bytes = await readAll(job, reader, head);
	if (!bytes) return;
	const pw = await load();
	// 64-bit values and the generation number need all their digits.
	const mmv = decode(pw.mmvRead(bytes, 0), { useBigInt64: true });
	if (mmv.error) {
		post({ type: "error", job, format: "mmv", message: mmv.error.message });
		return;
	}
	const secs = (performance.now() - t0) / 1000;
	post({ type: "done", view: "mmv", job, fed: bytes.length, total: bytes.length, bytesPerSec: bytes.length / secs, seconds: secs, mmv });
}

// runPDU feeds a PCP PDU stream to a PDU stream session piece by piece
// and gathers the PDUs into metrics, values over time and texts. A stream
// of unknown size (perfwire serve's live pmcd relay) may never end: the
// page then gets every TABLE_MS the metrics and only the points since the
// last time (pcpDelta: PCPStream.result(true), the arrays transferred).
async function runPDU(job, reader, head, t0, total, url) {
	const pw = await load();
	let s = pw.pduStream(0);
	const live = !total;
	const rd = live && url ? new Reconnecting(job, url, reader) : reader;
	const pcp = new PCPStream(() => (live ? liveWindow : 0));
	let fed = 0, last = performance.now(), lastTable = 0, err = null;
	const feed = (res) => {
		const r = decode(res);
		for (const p of r.pdus) pcp.add(p); // each PDU is a map inside the result
		if (r.error && !err) err = r.error;
	};
	try {
		let piece = head;
		for (;;) {
			if (piece.length) { fed += piece.length; feed(pw.pduFeed(s, piece)); }
			const now = performance.now();
			if (now - last >= BATCH_MS) {
				last = now;
				const msg = { type: "progress", job, fed, total, bytesPerSec: fed / ((now - t0) / 1000), messages: pcp.pdus, unit: "PDUs" };
				let buffers = [];
				if (live && now - lastTable >= TABLE_MS && (pcp.types.RESULT || 0) + (pcp.types.HIGHRES_RESULT || 0) > 0) {
					lastTable = now;
					msg.pcpDelta = pcp.result(true);
					buffers = msg.pcpDelta.buffers;
					delete msg.pcpDelta.buffers;
				}
				self.postMessage(msg, buffers);
			}
			const { value, done, fresh } = await rd.read();
			if (job !== current) { rd.cancel(); return; }
			if (done) break;
			if (fresh) {
				// The relay again: its stream starts over with the names,
				// descriptors …; a PDU the break cut off is dropped.
				pw.close(s);
				s = pw.pduStream(0);
			}
			piece = value;
		}
		feed(pw.pduEnd(s));
	} finally {
		pw.close(s);
	}
	const secs = (performance.now() - t0) / 1000;
	const res = pcp.result();
	delete res.buffers;
	post({ type: "done", view: "pdu", job, fed, total, bytesPerSec: fed / secs, seconds: secs, messages: pcp.pdus, pcp: res, error: err });
}

// The message log: per KPI message its TMSP, kind and sync (indexes into
// KINDS and SYNCS), its datasets as text and the pids they name.
const KINDS = ["NEW", "STP", "ACT", "CHK", "IRQ"], SYNCS = ["", "BEG", "END"];
const KEYS = ["pid", "ppid", "cmd", "cpu", "rss", "ctx", "io", "iowait", "name", "counts"];

// datasetText writes one dataset of the schema as key=value pairs, in
// the order perfwire kpi --json gives the keys, strings as the page
// shows /proc text.
function datasetText(d) {
	if (d.truncated) return "truncated raw=" + text(d.raw);
	if (d.error !== undefined) return "error=" + d.error + " raw=" + text(d.raw);
	const out = [];
	for (const k of KEYS) {
		const v = d[k];
		if (v === undefined) continue;
		out.push(k + "=" + (typeof v === "string" ? text(v) : Array.isArray(v) ? v.join(",") : String(v)));
	}
	return out.join(" ");
}

class LogColumns {
	constructor() { this.reset(); }
	reset() { this.tmsp = []; this.kind = []; this.sync = []; this.count = []; this.text = []; this.npids = []; this.pids = []; }
	add(messages) {
		for (const m of messages) {
			this.tmsp.push(m.tmsp);
			this.kind.push(KINDS.indexOf(m.kind));
			this.sync.push(SYNCS.indexOf(m.sync));
			this.count.push(m.datasets.length);
			this.text.push(m.datasets.map(datasetText).join(" | "));
			let n = 0;
			for (const d of m.datasets) if (d.pid !== undefined) { this.pids.push(d.pid); n++; }
			this.npids.push(n);
		}
	}
	take() {
		const b = {
			tmsp: Uint32Array.from(this.tmsp), kind: Int8Array.from(this.kind), sync: Int8Array.from(this.sync),
			count: Uint32Array.from(this.count), npids: Uint32Array.from(this.npids), pids: Int32Array.from(this.pids), text: this.text,
		};
		this.reset();
		return b;
	}
}

// LogKeeper decodes the message log as a KPI stream session decides the
// records: after each piece the session says how far the decided records
// go (its offset), and kpi_decode, which wants whole records, is given
// exactly those bytes; it keeps only the undecided ones. So the log has
// the messages perfwire kpi --json prints for the same bytes, for a
// stream that cannot be read again (the live relay) or a serial capture
// (kpi_decode in the serial framing: scanned, and resynchronised over
// damage, as the serial stream session and perfwire kpi scan it).
class LogKeeper {
	constructor(pw, framing) {
		this.pw = pw; this.serial = framing === 1;
		this.buf = new Uint8Array(0); this.base = 0; this.err = null;
		this.cols = new LogColumns();
	}
	add(u8) {
		const joined = new Uint8Array(this.buf.length + u8.length);
		joined.set(this.buf); joined.set(u8, this.buf.length);
		this.buf = joined;
	}
	// upTo decodes the bytes up to end (an offset in the whole stream).
	upTo(end) {
		if (end <= this.base) return;
		const b = this.buf.subarray(0, end - this.base);
		// kpi_decode's second argument: max (0, all) | framing << 24.
		const r = decode(this.pw.kpiDecode(b, this.serial ? 1 << 24 : 0));
		this.cols.add(r.messages);
		if (r.error && !this.err) this.err = r.error;
		this.buf = this.buf.slice(end - this.base);
		this.base = end;
	}
	// end decodes what is left: a record cut by the end, which kpi_decode
	// reports.
	end() { this.upTo(this.base + this.buf.length); }
	// post sends the messages decoded since the last post, as columns.
	post(job, done, fed, total) {
		const b = this.cols.take();
		self.postMessage({ type: "log", job, done, fed, total, error: this.err, ...b },
			[b.tmsp.buffer, b.kind.buffer, b.sync.buffer, b.count.buffer, b.npids.buffer, b.pids.buffer]);
	}
}

// runLog reads a .dlt file again for its message log.
async function runLog(job, source) {
	const reader = pieces(source.stream);
	const pw = await load();
	let s = null, keep = null, fed = 0, last = performance.now();
	try {
		for (;;) {
			const { value, done } = await reader.read();
			if (job !== current) { reader.cancel(); return; }
			if (done) break;
			if (!s) {
				const fmt = detect(value);
				if (fmt.framing !== 0) {
					reader.cancel();
					self.postMessage({ type: "log", job, done: true, error: { message: "the message log reads .dlt files with storage headers only" } });
					return;
				}
				s = pw.kpiStream(fmt.framing);
				keep = new LogKeeper(pw, fmt.framing);
			}
			fed += value.length;
			keep.add(value);
			keep.upTo(decode(pw.kpiFeed(s, value)).offset);
			const now = performance.now();
			if (now - last >= BATCH_MS) { last = now; keep.post(job, false, fed, source.size); }
		}
		if (keep) keep.end();
	} finally {
		if (s) pw.kpiClose(s);
	}
	if (keep) keep.post(job, true, fed, source.size);
	else self.postMessage({ type: "log", job, done: true, fed, total: source.size, error: null });
}

// Compressed archive files: gzip the browser undoes itself
// (DecompressionStream); the others must be decompressed first.
const GZIP = /\.gz$/, OTHER = /\.(xz|zst|bz2|lzma|Z)$/;

// runArchiveFiles reads the files of a PCP archive the user picked or
// dropped together, then its records.
async function runArchiveFiles(job, files, t0) {
	const other = files.find((f) => OTHER.test(f.name));
	if (other) {
		post({ type: "error", job, format: "PCP archive", message: `${other.name} is compressed: decompress it first ` +
			`(e.g. xz -dk ${other.name}, zstd -d, bunzip2); the viewer reads .gz itself` });
		return;
	}
	const total = files.reduce((n, f) => n + f.size, 0);
	const names = [], bytes = [];
	let fed = 0;
	for (const f of files) {
		let stream = f.stream();
		if (GZIP.test(f.name)) stream = stream.pipeThrough(new DecompressionStream("gzip"));
		const b = await readAll(job, pieces(stream), new Uint8Array(0));
		if (!b) return;
		names.push(f.name.replace(GZIP, ""));
		bytes.push(b);
		fed += f.size;
		post({ type: "progress", job, fed, total, bytesPerSec: fed / ((performance.now() - t0) / 1000), messages: 0, unit: "records" });
	}
	return readArchive(job, names, bytes, fed, total, t0);
}

// runArchiveURL reads an archive by URL: the one given (BASE.meta, as a
// rule) has been recognised from its label; BASE.meta, BASE.index and the
// volumes BASE.0, BASE.1 … are fetched beside it, the volumes until one
// is missing.
async function runArchiveURL(job, url, reader, head, t0) {
	const u = new URL(url, self.location.href);
	const base = u.pathname.replace(/\.(meta|index|\d+)$/, "");
	const at = (suffix) => { const x = new URL(u); x.pathname = base + suffix; return x.href; };
	const leaf = base.slice(base.lastIndexOf("/") + 1);
	const names = [], bytes = [];
	let fed = 0;
	const got = (suffix, b) => {
		names.push(leaf + suffix); bytes.push(b); fed += b.length;
		post({ type: "progress", job, fed, total: 0, bytesPerSec: fed / ((performance.now() - t0) / 1000), messages: 0, unit: "records" });
	};
	const fetchOne = async (suffix) => {
		const resp = await fetch(at(suffix));
		if (!resp.ok) { resp.body && resp.body.cancel(); return null; }
		return readAll(job, pieces(resp.body), new Uint8Array(0));
	};
	const first = await readAll(job, reader, head);
	if (!first) return;
	const own = u.pathname.slice(base.length);
	if (own === ".meta") got(".meta", first);
	else {
		const meta = await fetchOne(".meta");
		if (job !== current) return;
		if (!meta) throw new Error(`${at(".meta")}: not found (an archive is opened by its .meta, with the volumes beside it)`);
		got(".meta", meta);
	}
	for (const suffix of [".index"]) {
		const b = own === suffix ? first : await fetchOne(suffix); // an archive may lack its index
		if (job !== current) return;
		if (b) got(suffix, b);
	}
	for (let vol = 0; ; vol++) {
		const suffix = "." + vol;
		const b = own === suffix ? first : await fetchOne(suffix);
		if (job !== current) return;
		if (!b) break;
		got(suffix, b);
	}
	return readArchive(job, names, bytes, fed, 0, t0);
}

// readArchive hands the files to an archive session and reads its
// records a batch at a time, posting progress between batches (and
// yielding, so that a cancel is heard), then the whole to the page.
async function readArchive(job, names, files, fed, total, t0) {
	const pw = await load();
	const s = pw.archiveOpen(encode({ names, files }));
	if (!s) throw new Error("archive_open refused the files");
	files.length = 0; // the session keeps its own copy
	const store = new ArchiveStore();
	let err = null, skipped = 0, last = performance.now();
	try {
		for (;;) {
			// 64-bit integers keep every digit as BigInt.
			const r = decode(pw.archiveNext(s, 500), { useBigInt64: true });
			if (r.metrics) store.describe(r.metrics, r.labels); // the first batch's: before its records, for the rates' units
			for (const rec of r.records) store.add(rec);
			skipped = r.skipped;
			if (r.done) { err = r.error; break; }
			const now = performance.now();
			if (now - last >= BATCH_MS) {
				last = now;
				post({ type: "progress", job, fed, total, bytesPerSec: fed / ((now - t0) / 1000), messages: store.records, unit: "records" });
			}
			await new Promise((ok) => setTimeout(ok, 0));
			if (job !== current) return;
		}
	} finally {
		pw.close(s);
	}
	if (err && !store.records) {
		post({ type: "error", job, format: "PCP archive", message: "PCP archive: " + err.message });
		return;
	}
	const secs = (performance.now() - t0) / 1000;
	const archive = store.take();
	const buffers = archive.buffers;
	delete archive.buffers;
	archive.skipped = skipped;
	archive.names = names;
	self.postMessage({ type: "done", view: "archive", job, fed, total: total || fed, bytesPerSec: fed / secs, seconds: secs,
		messages: store.records, archive, error: err }, buffers);
}

// A promise of a job that fails outside the try below (none is known)
// still ends the job with an error the page shows.
self.addEventListener("unhandledrejection", (e) => {
	if (current) post({ type: "error", job: current, message: "the decoder stopped: " + String(e.reason && e.reason.message || e.reason) });
});

self.onmessage = async (e) => {
	const m = e.data;
	if (m.type === "module") { gotModule(m.bytes); return; }
	if (m.type === "cancel") { current = 0; return; }
	if (m.type === "window") { liveWindow = m.seconds; return; }
	if (m.type !== "open" && m.type !== "log") return;
	current = m.job;
	try {
		let source;
		if (m.files) {
			await runArchiveFiles(m.job, m.files, performance.now());
			return;
		}
		if (m.file) {
			source = { stream: m.file.stream(), size: m.file.size };
		} else {
			const resp = await fetch(m.url);
			if (!resp.ok) {
				// perfwire serve says in the body why a live source failed.
				const why = /^text\/plain/.test(resp.headers.get("content-type") || "") ? (await resp.text()).trim().slice(0, 500) : "";
				throw new Error(`${m.url}: HTTP ${resp.status} ${resp.statusText}` + (why ? ": " + why : ""));
			}
			source = { stream: resp.body, size: Number(resp.headers.get("content-length")) || 0, url: resp.url || m.url };
		}
		if (m.type === "log") await runLog(m.job, source);
		else await run(m.job, source);
	} catch (err) {
		if (m.job !== current) return;
		const message = String(err && err.message || err);
		if (m.type === "log") self.postMessage({ type: "log", job: m.job, done: true, error: { message } });
		else post({ type: "error", job: m.job, message });
	}
};
