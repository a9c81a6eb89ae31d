// A reader of the KPIStep results of kpiFeed and kpiEnd (wasm/ABI.md)
// that hands the samples, interrupt rows and ended processes to a sink as
// it meets them, instead of building an object per row as a generic
// MessagePack decoder does: a 100 MB capture's steps hold tens of
// thousands of rows, and their objects were most of the worker's time.
// Keys it does not know are skipped; any MessagePack value msgp writes
// is read.

const utf8 = new TextDecoder();
const keys = new Map();

// same reports whether the n bytes at b[p] are the ASCII string k.
function same(b, p, k) {
	for (let i = 0; i < k.length; i++) if (b[p + i] !== k.charCodeAt(i)) return false;
	return true;
}

class Reader {
	constructor(u8) {
		this.b = u8;
		this.v = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
		this.p = 0;
	}
	// head reads a type byte and the length or value it carries: for a
	// map, array or string its length; for a number the number.
	head() {
		const b = this.b, v = this.v, t = b[this.p++];
		let n;
		if (t <= 0x7f) { this.kind = "num"; return t; }
		if (t >= 0xe0) { this.kind = "num"; return t - 0x100; }
		if (t <= 0x8f) { this.kind = "map"; return t & 0x0f; }
		if (t <= 0x9f) { this.kind = "arr"; return t & 0x0f; }
		if (t <= 0xbf) { this.kind = "str"; return t & 0x1f; }
		const p = this.p;
		switch (t) {
		case 0xc0: this.kind = "nil"; return null;
		case 0xc2: this.kind = "bool"; return false;
		case 0xc3: this.kind = "bool"; return true;
		case 0xca: this.p += 4; this.kind = "num"; return v.getFloat32(p);
		case 0xcb: this.p += 8; this.kind = "num"; return v.getFloat64(p);
		case 0xcc: this.p += 1; this.kind = "num"; return b[p];
		case 0xcd: this.p += 2; this.kind = "num"; return v.getUint16(p);
		case 0xce: this.p += 4; this.kind = "num"; return v.getUint32(p);
		case 0xcf: this.p += 8; this.kind = "num"; return v.getUint32(p) * 4294967296 + v.getUint32(p + 4);
		case 0xd0: this.p += 1; this.kind = "num"; return v.getInt8(p);
		case 0xd1: this.p += 2; this.kind = "num"; return v.getInt16(p);
		case 0xd2: this.p += 4; this.kind = "num"; return v.getInt32(p);
		case 0xd3: this.p += 8; this.kind = "num"; return v.getInt32(p) * 4294967296 + v.getUint32(p + 4);
		case 0xd9: n = b[p]; this.p += 1; this.kind = "str"; return n;
		case 0xda: n = v.getUint16(p); this.p += 2; this.kind = "str"; return n;
		case 0xdb: n = v.getUint32(p); this.p += 4; this.kind = "str"; return n;
		case 0xc4: n = b[p]; this.p += 1; this.kind = "bin"; return n;
		case 0xc5: n = v.getUint16(p); this.p += 2; this.kind = "bin"; return n;
		case 0xc6: n = v.getUint32(p); this.p += 4; this.kind = "bin"; return n;
		case 0xdc: n = v.getUint16(p); this.p += 2; this.kind = "arr"; return n;
		case 0xdd: n = v.getUint32(p); this.p += 4; this.kind = "arr"; return n;
		case 0xde: n = v.getUint16(p); this.p += 2; this.kind = "map"; return n;
		case 0xdf: n = v.getUint32(p); this.p += 4; this.kind = "map"; return n;
		}
		throw new Error(`step: MessagePack type 0x${t.toString(16)} at ${p - 1}`);
	}
	text(n) {
		const b = this.b, p = this.p;
		this.p += n;
		if (n < 24) {
			let s = "";
			for (let i = p; i < p + n; i++) {
				if (b[i] >= 0x80) return utf8.decode(b.subarray(p, p + n));
				s += String.fromCharCode(b[i]);
			}
			return s;
		}
		return utf8.decode(b.subarray(p, p + n));
	}
	// value reads any value as a generic decoder would.
	value() {
		const x = this.head();
		switch (this.kind) {
		case "str": return this.text(x);
		case "bin": this.p += x; return this.b.slice(this.p - x, this.p);
		case "arr": { const a = new Array(x); for (let i = 0; i < x; i++) a[i] = this.value(); return a; }
		case "map": { const o = {}; for (let i = 0; i < x; i++) { const k = this.value(); o[k] = this.value(); } return o; }
		}
		return x;
	}
	// key reads a map key; the few keys of the schema are read once and
	// then found by their length and first and last bytes.
	key() {
		const n = this.head(), b = this.b, p = this.p;
		if (this.kind !== "str" || n === 0 || n > 24) return this.kind === "str" ? this.text(n) : this.value();
		const h = (n << 16) | (b[p] << 8) | b[p + n - 1];
		const k = keys.get(h);
		if (k !== undefined && k.length === n && same(b, p, k)) { this.p += n; return k; }
		const s = this.text(n);
		keys.set(h, s);
		return s;
	}
	// numbers reads an array of numbers onto the end of column (a Grow of
	// series.js) and returns how many it read.
	numbers(column) {
		const n = this.head();
		if (this.kind === "nil") return 0;
		const a = column.room(n);
		let at = column.n;
		for (let i = 0; i < n; i++) a[at++] = this.head();
		column.n = at;
		return n;
	}
	// each calls f for every element of an array (nil is empty).
	each(f) {
		const n = this.head();
		if (this.kind === "nil") return;
		for (let i = 0; i < n; i++) f();
	}
}

// readStep reads one KPIStep into sink: an ACT group's processes onto the
// ends of its columns sink.pids, sink.cpu, sink.rss, sink.ctx and sink.io
// (Grows of series.js, the numbers read straight into them), then
// sink.group(tmsp, count); sink.irq(name, cpu, hasDelta, perSecond, tmsp)
// and sink.ended(row) for the other entries. It returns the step's other
// keys (error, offset, total, done, messages).
export function readStep(u8, sink) {
	const r = new Reader(u8);
	const st = { error: null, offset: 0, total: 0, done: false, messages: 0 };
	const n = r.head();
	for (let i = 0; i < n; i++) {
		const k = r.key();
		switch (k) {
		case "samples":
			r.each(() => {
				let tmsp = 0, count = 0;
				const m = r.head();
				for (let j = 0; j < m; j++) {
					switch (r.key()) {
					case "tmsp": tmsp = r.head(); break;
					case "pids": count = r.numbers(sink.pids); break;
					case "cpu": r.numbers(sink.cpu); break;
					case "rss": r.numbers(sink.rss); break;
					case "ctx": r.numbers(sink.ctx); break;
					case "io": r.numbers(sink.io); break;
					default: r.value();
					}
				}
				sink.group(tmsp, count);
			});
			break;
		case "irqs":
			r.each(() => {
				let name = "", cpu = 0, hasDelta = false, rate = 0, tmsp = 0;
				const m = r.head();
				for (let j = 0; j < m; j++) {
					switch (r.key()) {
					case "name": name = r.value(); break;
					case "cpu": cpu = r.head(); break;
					case "has_delta": hasDelta = r.head(); break;
					case "per_second": rate = r.head(); break;
					case "tmsp": tmsp = r.head(); break;
					default: r.value();
					}
				}
				sink.irq(name, cpu, hasDelta, rate, tmsp);
			});
			break;
		case "ended":
			r.each(() => {
				// An ended process's row needs fewer fields than a running
				// one's: its last CPU, RSS and counters are not shown.
				const p = { pid: 0, ppid: 0, ppid_known: false, cmd: "", cmd_kind: "", partial: false, stat_shifted: false, first_seen: 0, last_seen: 0, end: 0, end_by: "" };
				const m = r.head();
				for (let j = 0; j < m; j++) {
					const f = r.key();
					if (f in p) p[f] = r.value(); else r.value();
				}
				sink.ended(p);
			});
			break;
		default:
			st[k] = r.value();
		}
	}
	return st;
}
