// Columnar storage of what the worker streams in (the ACT groups' samples
// and the IRQ rows), and the per-process or per-interrupt series the
// charts draw from it. Typed arrays grow by doubling, so appending a batch
// never copies more than the batch.

export class Grow {
	constructor(Type) { this.Type = Type; this.a = new Type(1024); this.n = 0; }
	// room makes room for k more elements and returns the array to write
	// them in, from n on (the writer adds k to n).
	room(k) {
		if (this.n + k > this.a.length) {
			const b = new this.Type(Math.max(this.a.length * 2, this.n + k));
			b.set(this.a.subarray(0, this.n));
			this.a = b;
		}
		return this.a;
	}
	push(src) {
		this.room(src.length).set(src, this.n);
		this.n += src.length;
	}
	get view() { return this.a.subarray(0, this.n); }
	// take returns the elements in an array of their own and empties the
	// Grow, keeping its room.
	take() {
		const out = this.a.slice(0, this.n);
		this.n = 0;
		return out;
	}
	// drop removes the first k elements.
	drop(k) { this.a.copyWithin(0, k, this.n); this.n -= k; }
}

// METRICS are the per-process values of an ACT sample the page charts:
// the column each lives in and how fill turns a column's stored numbers
// into what `perfwire kpi top` prints, NaN where it prints "-" (no
// value). A loop per metric, not a call per value.
export const METRICS = {
	cpu: { fill: (out, v) => out.set(v) },
	rss: { fill: (out, v, ctx, pageSize) => { for (let i = 0; i < v.length; i++) out[i] = Math.trunc(v[i] * pageSize / 1024); } }, // pages → KiB, as Go divides
	ctx: { fill: (out, v) => { for (let i = 0; i < v.length; i++) out[i] = v[i] < 0 ? NaN : v[i]; } }, // -1: no delta yet
	io: { fill: (out, v, ctx) => { for (let i = 0; i < v.length; i++) out[i] = ctx[i] < 0 ? NaN : v[i]; } }, // no delta when ctx has none
};

export class Samples {
	constructor() {
		this.times = new Grow(Float64Array); // per ACT group: seconds of ECU uptime
		this.counts = new Grow(Uint32Array); // per ACT group: processes listed
		this.pids = new Grow(Int32Array); // per listed process
		this.cpu = new Grow(Uint16Array); // per listed process: ‰ of the machine
		this.rss = new Grow(Float64Array); // pages
		this.ctx = new Grow(Float64Array); // context switches in the interval, -1 without
		this.io = new Grow(Float64Array); // I/O bytes in the interval
		this.irqT = new Grow(Float64Array); // per IRQ row: its group's BEG in seconds
		this.irqRate = new Grow(Float64Array); // per second, NaN without a delta
		this.irqKey = new Grow(Uint32Array); // the number of its "name cpuN" in irqNames
		this.irqNames = [];
		this.changes = 0; // appends and drops so far, for order()
	}
	append(b) {
		this.changes++;
		this.times.push(b.times); this.counts.push(b.counts);
		this.pids.push(b.pids); this.cpu.push(b.cpu);
		this.rss.push(b.rss); this.ctx.push(b.ctx); this.io.push(b.io);
	}
	appendIRQ(b) {
		this.irqT.push(b.irqT); this.irqRate.push(b.irqRate); this.irqKey.push(b.irqKey);
		for (const k of b.irqNew) this.irqNames.push(k);
	}
	// keepSince drops the ACT groups and IRQ rows before cutoff (seconds):
	// a live stream keeps a window of its latest values, not all of them.
	// Groups arrive in time order; it stops at the first one it keeps.
	keepSince(cutoff) {
		this.changes++;
		const times = this.times.a, counts = this.counts.a;
		let g = 0, k = 0;
		while (g < this.times.n && times[g] < cutoff) k += counts[g++];
		if (g) {
			this.times.drop(g); this.counts.drop(g);
			for (const c of [this.pids, this.cpu, this.rss, this.ctx, this.io]) c.drop(k);
		}
		let j = 0;
		while (j < this.irqT.n && this.irqT.a[j] < cutoff) j++;
		if (j) for (const c of [this.irqT, this.irqRate, this.irqKey]) c.drop(j);
	}
	// newest is the time of the last ACT group or IRQ row, in seconds.
	get newest() {
		return Math.max(this.times.n ? this.times.a[this.times.n - 1] : -Infinity, this.irqT.n ? this.irqT.a[this.irqT.n - 1] : -Infinity);
	}
	// span is the range of the times of the ACT groups and IRQ rows,
	// [earliest, latest] in seconds (Infinity, -Infinity without any).
	get span() {
		let lo = Infinity, hi = -Infinity;
		for (const t of [this.times.view, this.irqT.view]) {
			for (let i = 0; i < t.length; i++) { if (t[i] < lo) lo = t[i]; if (t[i] > hi) hi = t[i]; }
		}
		return [lo, hi];
	}
	// order is the ACT groups' indexes in ascending time (they arrive in
	// capture order, uPlot wants x ascending; ties in arrival order), kept
	// for the charts of one drawing: a capture that goes back in time
	// (several joined) needs a sort, which each chart repeated.
	order() {
		if (this.sortedAt !== this.changes) {
			this.sorted = ascending(this.times.view);
			this.sortedAt = this.changes;
		}
		return this.sorted;
	}
	get length() { return this.times.n; }
	get entries() { return this.pids.n; }
	get irqRows() { return this.irqT.n; }

	// idents returns, per listed process, the number ident(pid, seconds)
	// gives the process it belongs to, for series.
	idents(ident) {
		const times = this.times.view, counts = this.counts.view, pids = this.pids.view;
		const who = new Int32Array(pids.length);
		for (let g = 0, i = 0; g < times.length; g++) {
			for (const end = i + counts[g]; i < end; i++) who[i] = ident(pids[i], times[g]);
		}
		return who;
	}

	// series returns uPlot's aligned data for the top n processes by the
	// peak of metric (cpu, rss, ctx or io, as METRICS converts them):
	// [x, total, others, top1, …, topN], a top process's y null where it
	// was not listed or had no value (uPlot draws a gap), and the top
	// processes in order, each as the number who gives it. who (idents)
	// numbers each listed process below nwho; equal peaks go in the order
	// their processes' first values came. Without who a process is its
	// pid (a reused pid is then one process), numbered by numberPids, and
	// equal peaks go by pid. Peaks, order and columns are typed arrays
	// indexed by those numbers, not Maps keyed by an object per process.
	series(metric, n, pageSize = 4096, who = null, nwho = 0) {
		const times = this.times.view, counts = this.counts.view, pids = this.pids.view;
		const col = this[metric].view, ctx = this.ctx.view, byPid = !who;
		let sp = null; // byPid: the pid of each number
		if (byPid) {
			({ who, pidOf: sp } = numberPids(pids));
			nwho = sp.length;
		}
		const vals = new Float64Array(pids.length);
		const start = new Uint32Array(times.length);
		for (let i = 1; i < times.length; i++) start[i] = start[i - 1] + counts[i - 1];
		// Equal peaks go by pid, or for numbered processes in the order
		// their first values came.
		const peak = new Float64Array(nwho).fill(NaN), seq = new Uint32Array(nwho);
		METRICS[metric].fill(vals, col, ctx, pageSize);
		for (let i = 0, next = 0; i < vals.length; i++) {
			const v = vals[i], p = who[i];
			if (Number.isNaN(v)) continue;
			if (Number.isNaN(peak[p])) seq[p] = next++;
			if (!(peak[p] >= v)) peak[p] = v;
		}
		const top = topN(peaks(peak), n, (a, b) => b[1] - a[1] || (byPid ? sp[a[0]] - sp[b[0]] : seq[a[0]] - seq[b[0]]));
		const colOf = new Int32Array(nwho).fill(-1);
		top.forEach((p, i) => { colOf[p] = i; });
		const x = new Float64Array(times.length), total = new Float64Array(times.length), others = new Float64Array(times.length);
		const ys = top.map(() => new Array(times.length).fill(null));
		this.order().forEach((g, row) => {
			x[row] = times[g];
			let sum = 0, rest = 0;
			for (let k = start[g], end = start[g] + counts[g]; k < end; k++) {
				const v = vals[k], j = colOf[who[k]];
				if (Number.isNaN(v)) continue;
				sum += v;
				if (j < 0) rest += v; else ys[j][row] = v;
			}
			total[row] = sum; others[row] = rest;
		});
		return { data: [x, total, others, ...ys], top: byPid ? top.map((k) => sp[k]) : top };
	}

	// irqSeries returns uPlot's aligned data for the top n interrupts (a
	// name on one CPU) by peak rate: [x, top1, …, topN] over the times of
	// the IRQ groups, null where a group did not update one or it had no
	// delta yet, and the top keys in order.
	irqSeries(n) {
		const t = this.irqT.view, rate = this.irqRate.view, key = this.irqKey.view;
		const peak = new Map();
		for (let i = 0; i < t.length; i++) {
			if (!Number.isNaN(rate[i]) && !(peak.get(key[i]) >= rate[i])) peak.set(key[i], rate[i]);
		}
		const names = this.irqNames;
		const top = topN(peak, n, (a, b) => b[1] - a[1] || (names[a[0]] < names[b[0]] ? -1 : 1));
		const cols = new Map(top.map((k, i) => [k, i]));
		const xs = [...new Set(t)].sort((a, b) => a - b);
		const at = new Map(xs.map((v, i) => [v, i]));
		const ys = top.map(() => new Array(xs.length).fill(null));
		for (let i = 0; i < t.length; i++) {
			const j = cols.get(key[i]);
			if (j !== undefined && !Number.isNaN(rate[i])) ys[j][at.get(t[i])] = rate[i];
		}
		return { data: [Float64Array.from(xs), ...ys], top: top.map((k) => this.irqNames[k]) };
	}
}

// numberPids numbers pids in the order they first come: who, each listed
// process's number, and pidOf, the pid of each number.
function numberPids(pids) {
	const of = new Map(), pidOf = [], who = new Int32Array(pids.length);
	for (let i = 0; i < pids.length; i++) {
		let k = of.get(pids[i]);
		if (k === undefined) {
			k = pidOf.length;
			of.set(pids[i], k);
			pidOf.push(pids[i]);
		}
		who[i] = k;
	}
	return { who, pidOf };
}

// peaks gives the [number, peak] of every process with a value.
function* peaks(peak) {
	for (let p = 0; p < peak.length; p++) if (!Number.isNaN(peak[p])) yield [p, peak[p]];
}

// topN returns the keys of the n first [key, value] entries in cmp's
// order, without sorting all of them (a capture can have many thousands).
function topN(entries, n, cmp) {
	const best = [];
	if (n <= 0) return best;
	for (const e of entries) {
		if (best.length === n && cmp(e, best[n - 1]) >= 0) continue;
		let i = best.length < n ? best.length : n - 1;
		best[i] = e;
		while (i > 0 && cmp(best[i], best[i - 1]) < 0) { [best[i], best[i - 1]] = [best[i - 1], best[i]]; i--; }
	}
	return best.map(([k]) => k);
}

// ascending returns the indexes of times in ascending order (ACT groups
// arrive in capture order, uPlot wants x ascending), ties in arrival order.
function ascending(times) {
	const order = Array.from(times.keys());
	for (let i = 1; i < times.length; i++) {
		if (times[i] < times[i - 1]) return order.sort((a, b) => times[a] - times[b] || a - b);
	}
	return order;
}

// The flags of an ended process's row, in Ended's flags column.
export const ENDED_PPID_KNOWN = 1, ENDED_PARTIAL = 2, ENDED_STAT_SHIFTED = 4;

// Ended stores the rows of the processes that left the table as the
// worker's batches bring them, in columns (end* of a batch), and gives
// them back one by one as the rows the schema's ended entries are
// (KPIProcess).
export class Ended {
	constructor() {
		this.pid = new Grow(Int32Array); this.ppid = new Grow(Int32Array); this.flags = new Grow(Uint8Array);
		this.first = new Grow(Float64Array); this.last = new Grow(Float64Array); this.end = new Grow(Float64Array);
		this.cmd = []; this.kind = []; this.by = [];
	}
	get length() { return this.pid.n; }
	append(b) {
		if (!b.endPid.length) return;
		this.pid.push(b.endPid); this.ppid.push(b.endPpid); this.flags.push(b.endFlags);
		this.first.push(b.endFirst); this.last.push(b.endLast); this.end.push(b.endAt);
		for (let i = 0; i < b.endCmd.length; i++) { this.cmd.push(b.endCmd[i]); this.kind.push(b.endKind[i]); this.by.push(b.endBy[i]); }
	}
	// row is the i-th ended process as a KPIProcess row.
	row(i) {
		const f = this.flags.a[i];
		return {
			pid: this.pid.a[i], ppid: this.ppid.a[i], ppid_known: !!(f & ENDED_PPID_KNOWN), cmd: this.cmd[i], cmd_kind: this.kind[i],
			partial: !!(f & ENDED_PARTIAL), stat_shifted: !!(f & ENDED_STAT_SHIFTED),
			first_seen: this.first.a[i], last_seen: this.last.a[i], end: this.end.a[i], end_by: this.by[i],
		};
	}
	// keepSince drops the rows of processes that ended before tmsp.
	keepSince(tmsp) {
		const cols = [this.pid, this.ppid, this.flags, this.first, this.last, this.end], strs = [this.cmd, this.kind, this.by];
		let k = 0;
		for (let i = 0; i < this.end.n; i++) {
			if (this.end.a[i] < tmsp) continue;
			if (k !== i) {
				for (const c of cols) c.a[k] = c.a[i];
				for (const s of strs) s[k] = s[i];
			}
			k++;
		}
		for (const c of cols) c.n = k;
		for (const s of strs) s.length = k;
	}
}
