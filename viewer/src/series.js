// Columnar storage of the CPU samples the worker streams in, and the
// per-process series the charts draw from it. Typed arrays grow by
// doubling, so appending a batch never copies more than the batch.

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
}

export class Samples {
	constructor() {
		this.times = new Grow(Float64Array); // per ACT group: seconds of ECU uptime
		this.counts = new Grow(Uint32Array); // per ACT group: processes listed
		this.pids = new Grow(Int32Array); // per listed process
		this.cpu = new Grow(Uint16Array); // per listed process: ‰ of the machine
	}
	append(b) {
		this.times.push(b.times); this.counts.push(b.counts);
		this.pids.push(b.pids); this.cpu.push(b.cpu);
	}
	get length() { return this.times.n; }
	get entries() { return this.pids.n; }

	// cpuSeries returns uPlot's aligned data for the top n processes by
	// peak CPU: [x, total, others, top1, …, topN], a top process's y null
	// where it was not listed (uPlot draws a gap), and the top pids in order.
	cpuSeries(n) {
		const times = this.times.view, counts = this.counts.view, pids = this.pids.view, cpu = this.cpu.view;
		const peak = new Map();
		for (let i = 0; i < pids.length; i++) {
			const p = pids[i], c = cpu[i];
			if (!(peak.get(p) >= c)) peak.set(p, c);
		}
		const top = [...peak].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, n).map(([p]) => p);
		const col = new Map(top.map((p, i) => [p, i]));
		// ACT groups arrive in capture order; uPlot wants x ascending.
		const order = Array.from(times.keys());
		let sorted = true;
		for (let i = 1; i < times.length; i++) if (times[i] < times[i - 1]) { sorted = false; break; }
		const start = new Uint32Array(times.length);
		for (let i = 1; i < times.length; i++) start[i] = start[i - 1] + counts[i - 1];
		if (!sorted) order.sort((a, b) => times[a] - times[b] || a - b);
		const x = new Float64Array(times.length), total = new Float64Array(times.length), others = new Float64Array(times.length);
		const ys = top.map(() => new Array(times.length).fill(null));
		order.forEach((g, row) => {
			x[row] = times[g];
			let sum = 0, rest = 0;
			for (let k = start[g], end = start[g] + counts[g]; k < end; k++) {
				const c = cpu[k], j = col.get(pids[k]);
				sum += c;
				if (j === undefined) rest += c; else ys[j][row] = c;
			}
			total[row] = sum; others[row] = rest;
		});
		return { data: [x, total, others, ...ys], top };
	}
}
