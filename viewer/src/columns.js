// The worker's batch of a KPI stream session's steps, as columns
// (readStep fills it): kept apart from the worker so that viewer/floor.mjs
// reads the module's results into the same columns outside a browser.
import { ENDED_PPID_KNOWN, ENDED_PARTIAL, ENDED_STAT_SHIFTED, Grow } from "./series.js";

// Columns collects one batch of a step's results: per ACT group its time
// and how many processes it listed; per process in it, the pid, its CPU in
// ‰, RSS in pages, context switches and I/O bytes in the interval (ctx -1
// without a delta); per IRQ row its group's time, the number of its
// "name cpuN" (irqNew names those first seen in the batch, numbered on)
// and its rate (NaN without a delta); and the processes that ended, in
// columns too (end*: a 100 MB capture ends 64,000 processes, and cloning
// an object for each into the page cost it 0.3-0.5 s).
export class Columns {
	constructor() {
		this.keys = new Map(); this.nkeys = 0;
		this.times = new Grow(Float64Array); this.counts = new Grow(Uint32Array);
		this.pids = new Grow(Int32Array); this.cpu = new Grow(Uint16Array);
		this.rss = new Grow(Float64Array); this.ctx = new Grow(Float64Array); this.io = new Grow(Float64Array);
		this.reset();
	}
	reset() {
		this.irqT = []; this.irqKey = []; this.irqRate = []; this.irqNew = [];
		this.endPid = []; this.endPpid = []; this.endFlags = []; this.endFirst = []; this.endLast = []; this.endAt = [];
		this.endCmd = []; this.endKind = []; this.endBy = [];
	}
	// group, irq and ended take a step's entries as readStep meets them
	// (an ACT group's processes are in the Grows already).
	group(tmsp, count) {
		this.times.room(1)[this.times.n++] = tmsp / 10000;
		this.counts.room(1)[this.counts.n++] = count;
		// A value column of another length than pids (the schema writes
		// none) is cut or padded with zeros to stay aligned.
		const n = this.pids.n;
		for (const c of [this.cpu, this.rss, this.ctx, this.io]) {
			if (c.n > n) c.n = n;
			else if (c.n < n) { c.room(n - c.n).fill(0, c.n, n); c.n = n; }
		}
	}
	irq(name, cpu, hasDelta, perSecond, tmsp) {
		let byCPU = this.keys.get(name);
		if (!byCPU) this.keys.set(name, (byCPU = []));
		let id = byCPU[cpu];
		if (id === undefined) {
			id = byCPU[cpu] = this.nkeys++;
			this.irqNew.push(`${name} cpu${cpu}`);
		}
		this.irqT.push(tmsp / 10000);
		this.irqKey.push(id);
		this.irqRate.push(hasDelta ? perSecond : NaN);
	}
	ended(p) {
		this.endPid.push(p.pid); this.endPpid.push(p.ppid);
		this.endFlags.push((p.ppid_known ? ENDED_PPID_KNOWN : 0) | (p.partial ? ENDED_PARTIAL : 0) | (p.stat_shifted ? ENDED_STAT_SHIFTED : 0));
		this.endFirst.push(p.first_seen); this.endLast.push(p.last_seen); this.endAt.push(p.end);
		this.endCmd.push(p.cmd); this.endKind.push(p.cmd_kind); this.endBy.push(p.end_by);
	}
	take() {
		const b = {
			times: this.times.take(), counts: this.counts.take(),
			pids: this.pids.take(), cpu: this.cpu.take(), rss: this.rss.take(), ctx: this.ctx.take(), io: this.io.take(),
			irqT: Float64Array.from(this.irqT), irqRate: Float64Array.from(this.irqRate), irqKey: Uint32Array.from(this.irqKey),
			irqNew: this.irqNew,
			endPid: Int32Array.from(this.endPid), endPpid: Int32Array.from(this.endPpid), endFlags: Uint8Array.from(this.endFlags),
			endFirst: Float64Array.from(this.endFirst), endLast: Float64Array.from(this.endLast), endAt: Float64Array.from(this.endAt),
			endCmd: this.endCmd, endKind: this.endKind, endBy: this.endBy,
		};
		this.reset();
		return b;
	}
	get empty() { return this.times.n === 0 && this.irqT.length === 0 && this.endPid.length === 0; }
}
