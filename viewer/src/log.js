// The message log: every KPI message of a capture, as perfwire kpi --json
// gives them, in a table that draws only the rows in view, filtered by
// kind, pid, text and time range. The worker streams the messages in as
// columns; a filter is an index of the matching message numbers. It keeps
// the last `limit` messages: a live stream's log would otherwise grow for
// ever; the older ones are dropped and counted.
import { secs } from "./text.js";
import { ROW, Viewport } from "./table.js";

const KINDS = ["NEW", "STP", "ACT", "CHK", "IRQ"], SYNCS = ["", "BEG", "END"];

class Grow {
	constructor(Type) { this.Type = Type; this.a = new Type(1024); this.n = 0; }
	push(src) {
		if (this.n + src.length > this.a.length) {
			const b = new this.Type(Math.max(this.a.length * 2, this.n + src.length));
			b.set(this.a.subarray(0, this.n));
			this.a = b;
		}
		this.a.set(src, this.n);
		this.n += src.length;
	}
	get view() { return this.a.subarray(0, this.n); }
	// drop removes the first k elements.
	drop(k) { this.a.copyWithin(0, k, this.n); this.n -= k; }
}

export class MessageLog {
	constructor(el, limit = 100000) {
		this.el = el;
		this.limit = limit;
		this.reset();
		el.classList.add("vtable");
		const head = document.createElement("div");
		head.className = "vrow vhead";
		for (const [label, cls] of [["#", "num"], ["time s", "num t"], ["kind", ""], ["sync", ""], ["datasets", "num"], ["content", "cmd"]]) {
			const h = document.createElement("span");
			h.textContent = label;
			h.className = cls;
			head.append(h);
		}
		this.scroller = document.createElement("div");
		this.scroller.className = "vscroll";
		this.body = document.createElement("div");
		this.body.className = "vbody";
		this.scroller.append(this.body);
		this.port = new Viewport(this.scroller, () => this.paint());
		el.replaceChildren(head, this.scroller);
	}
	reset() {
		this.tmsp = new Grow(Uint32Array); this.kind = new Grow(Int8Array); this.sync = new Grow(Int8Array);
		this.count = new Grow(Uint32Array); this.pidAt = new Grow(Uint32Array); this.pids = new Grow(Int32Array);
		this.text = []; this.lower = [];
		this.dropped = 0; // the oldest messages, beyond the limit
		this.filter = { kind: -1, pid: null, text: "", from: null, to: null };
		this.index = new Uint32Array(0);
		if (this.body) { this.body.style.height = "0px"; this.body.replaceChildren(); }
	}
	get length() { return this.tmsp.n; }
	append(b) {
		this.tmsp.push(b.tmsp); this.kind.push(b.kind); this.sync.push(b.sync); this.count.push(b.count);
		// pidAt[i] is where message i's pids start; the next one's ends them.
		const at = new Uint32Array(b.npids.length);
		let n = this.pids.n;
		for (let i = 0; i < at.length; i++) { at[i] = n; n += b.npids[i]; }
		this.pidAt.push(at); this.pids.push(b.pids);
		for (const t of b.text) { this.text.push(t); this.lower.push(t.toLowerCase()); }
		this.trim();
		this.refresh();
	}
	// setLimit keeps at most n messages from now on (the last ones).
	setLimit(n) { this.limit = n; this.trim(); this.refresh(); }
	// trim drops the oldest messages beyond the limit.
	trim() {
		const k = this.length - this.limit;
		if (k <= 0) return;
		const firstPid = k < this.length ? this.pidAt.a[k] : this.pids.n;
		for (const g of [this.tmsp, this.kind, this.sync, this.count, this.pidAt]) g.drop(k);
		this.pids.drop(firstPid);
		for (let i = 0; i < this.pidAt.n; i++) this.pidAt.a[i] -= firstPid;
		this.text.splice(0, k); this.lower.splice(0, k);
		this.dropped += k;
	}
	setFilter(f) { Object.assign(this.filter, f); this.refresh(); }
	// matches reports whether message i passes the filter.
	matches(i) {
		const f = this.filter;
		if (f.kind >= 0 && this.kind.a[i] !== f.kind) return false;
		const t = this.tmsp.a[i] / 10000;
		if (f.from !== null && t < f.from) return false;
		if (f.to !== null && t > f.to) return false;
		if (f.pid !== null) {
			const end = i + 1 < this.length ? this.pidAt.a[i + 1] : this.pids.n;
			let hit = false;
			for (let k = this.pidAt.a[i]; k < end && !hit; k++) hit = this.pids.a[k] === f.pid;
			if (!hit) return false;
		}
		if (f.text && !this.lower[i].includes(f.text) && !KINDS[this.kind.a[i]].toLowerCase().includes(f.text)) return false;
		return true;
	}
	refresh() {
		const idx = new Uint32Array(this.length);
		let n = 0;
		for (let i = 0; i < this.length; i++) if (this.matches(i)) idx[n++] = i;
		this.index = idx.subarray(0, n);
		this.body.style.height = n * ROW + "px";
		this.paint();
	}
	// cells returns message i as the table shows it.
	cells(i) {
		return [String(this.dropped + i + 1), secs(this.tmsp.a[i]), KINDS[this.kind.a[i]] ?? "?", SYNCS[this.sync.a[i]] ?? "?", String(this.count.a[i]), this.text[i]];
	}
	paint() {
		const [first, last] = this.port.rows(this.index.length);
		const frag = document.createDocumentFragment();
		const cls = ["num", "num t", "", "", "num", "cmd"];
		for (let r = first; r < last; r++) {
			const tr = document.createElement("div");
			tr.className = "vrow";
			tr.style.top = r * ROW + "px";
			this.cells(this.index[r]).forEach((c, j) => {
				const td = document.createElement("span");
				td.textContent = c;
				td.className = cls[j];
				if (j === 5) td.title = c;
				tr.append(td);
			});
			frag.append(tr);
		}
		this.body.replaceChildren(frag);
	}
}
