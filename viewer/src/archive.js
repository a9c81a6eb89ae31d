// ArchiveStore gathers a PCP archive's records, as archive_next hands
// them over (each the object `perfwire archive --json` prints), into
// columns the page can chart: per metric and instance the records it has
// a value in, its values, and for a counter its rate per second since the
// instance's value in the record before (none across a mark record, none
// when the count went down: a restart; a time utilization for a counter
// of time, as pmval converts it). It runs in the worker; take() gives the
// page typed arrays to transfer.
import { identNum, indomNum, mergeInto, rateOf, unitsText } from "./pcp.js";

// stampSeconds splits an RFC 3339 UTC time with up to nine digits of
// fraction into whole seconds since the epoch and nanoseconds, so that a
// difference keeps every digit a double can hold.
export function stampSeconds(ts) {
	const sec = Date.parse(ts.slice(0, 19) + "Z") / 1000;
	const m = /^\.(\d{1,9})/.exec(ts.slice(19));
	return [sec, m ? Number(m[1].padEnd(9, "0")) : 0];
}

// float32Text is the shortest text of a float metric's value (its
// descriptor's type PM_TYPE_FLOAT), as perfwire archive --json writes it
// (0.65, not 0.6499999761581421), or null for an integer, which needs
// none. MessagePack's float32 arrives as the double of the same value.
function float32Text(x) {
	if (typeof x !== "number" || Number.isInteger(x) || !Number.isFinite(x) || Math.fround(x) !== x) return null;
	for (let p = 1; p < 9; p++) {
		const t = x.toPrecision(p);
		if (Math.fround(Number(t)) === x) return String(Number(t));
	}
	return null;
}

// kindOf says how a value is shown: a number (charted), a string, event
// records, an aggregate's hex, or an error.
function kindOf(v) {
	if (v.error !== undefined) return "error";
	if (v.records !== undefined) return "events";
	if (v.hex !== undefined) return "hex";
	if (typeof v.value === "string") return "string";
	return "number";
}

export class ArchiveStore {
	constructor() {
		this.stamps = []; // each record's timestamp as the JSON has it
		this.t = []; // each record's time in seconds from the first record's whole second
		this.marks = []; // the indexes of the mark records
		this.sec0 = null;
		this.metrics = new Map(); // name -> {name, pmid, counter, kinds, values, insts: Map(inst -> series)}
		this.meta = new Map(); // pmid -> the .meta's {pmid, name, type, indom, sem, pmunits, oneline, help}
	}

	// describe takes the metrics of the archive's .meta (archive_next's
	// first batch), whose units say how a counter's rates are converted,
	// and its label records.
	describe(metrics, labels) {
		for (const m of metrics) this.meta.set(m.pmid, m);
		this.labels = labels || [];
	}

	add(rec) {
		const [sec, nsec] = stampSeconds(rec.timestamp);
		if (this.sec0 === null) this.sec0 = sec;
		const r = this.stamps.length;
		const t = sec - this.sec0 + nsec / 1e9;
		this.stamps.push(rec.timestamp);
		this.t.push(t);
		if (rec.mark) {
			this.marks.push(r);
			for (const m of this.metrics.values()) for (const s of m.insts.values()) s.prev = null; // no rate across a gap
			return;
		}
		for (const v of rec.values || []) {
			let m = this.metrics.get(v.name);
			if (!m) {
				const d = this.meta.get(v.pmid);
				m = { name: v.name, pmid: v.pmid, counter: !!v.counter, kinds: new Set(), values: 0, insts: new Map(),
					scale: rateOf(d ? unitsText(d.pmunits) : "").scale, float: !!d && d.type === "float" };
				this.metrics.set(v.name, m);
			}
			let s = m.insts.get(v.inst);
			if (!s) {
				s = { inst: v.inst, instance: v.instance ?? "", r: [], v: [], rate: [], text: [], prev: null };
				m.insts.set(v.inst, s);
			}
			if (v.instance !== undefined) s.instance = v.instance;
			const kind = kindOf(v);
			m.kinds.add(kind);
			m.values++;
			s.r.push(r);
			if (kind !== "number") {
				s.v.push(NaN);
				s.rate.push(NaN);
				s.text.push(kind === "error" ? "error: " + v.error : kind === "events" ? `${v.records.length} event records` :
					kind === "hex" ? "[" + v.hex + "]" : v.value);
				s.prev = null;
				continue;
			}
			// 64-bit integers beyond 2^53 come as BigInt: the text keeps
			// every digit, the chart takes the nearest double.
			const big = typeof v.value === "bigint";
			const f32 = big || !m.float ? null : float32Text(v.value);
			s.v.push(f32 === null ? Number(v.value) : Number(f32));
			s.text.push(big ? v.value.toString() : f32);
			let rate = NaN;
			if (m.counter && s.prev) {
				const dt = t - s.prev.t;
				const d = typeof v.value === "bigint" || typeof s.prev.value === "bigint" ?
					Number(BigInt(v.value) - BigInt(s.prev.value)) : v.value - s.prev.value;
				if (dt > 0 && d >= 0) rate = d / (dt * m.scale);
			}
			s.rate.push(rate);
			s.prev = { t, value: v.value };
		}
	}

	get records() { return this.stamps.length; }

	// take returns what the page shows and the buffers to transfer: the
	// records' times and stamps, the marks, and per metric its series,
	// each {inst, instance, r (record indexes), v, rate (counters),
	// text (non-numbers and exact 64-bit values, null elsewhere)}, and the
	// .meta's metrics (meta).
	take() {
		const buffers = [];
		const f64 = (a) => { const x = Float64Array.from(a); buffers.push(x.buffer); return x; };
		const metrics = [...this.metrics.values()].map((m) => ({
			name: m.name, pmid: m.pmid, counter: m.counter, kinds: [...m.kinds], values: m.values,
			series: [...m.insts.values()].sort((a, b) => a.inst - b.inst).map((s) => {
				const r = Uint32Array.from(s.r);
				buffers.push(r.buffer);
				return {
					inst: s.inst, instance: s.instance, r, v: f64(s.v), rate: m.counter ? f64(s.rate) : null,
					text: s.text.some((x) => x !== null) ? s.text : null,
				};
			}),
		}));
		return { t: f64(this.t), stamps: this.stamps, marks: this.marks, metrics, meta: [...this.meta.values()], labels: this.labels || [], buffers };
	}
}

// The label levels (PM_LABEL_*) of a metric, merged in this order, later
// ones winning; an instance's own set (INSTANCES) over them all.
const CONTEXT = 1, DOMAIN = 2, INDOM = 4, CLUSTER = 8, ITEM = 16, INSTANCES = 32;

// ArchiveLabels finds a metric's labels among an archive's label sets
// (archive_next's labels: [ns, type, ident, inst, json] each, a record's
// consecutive), as pminfo -a ARCHIVE -l shows them: each object's (the
// context, the metric's domain, instance domain, cluster, item, and its
// instance domain's instances) as the archive first recorded it.
export class ArchiveLabels {
	constructor(sets) {
		this.first = new Map(); // "type ident" -> {ns, sets: [{inst, json}]}: the object's earliest record
		for (const [ns, type, ident, inst, json] of sets || []) {
			const key = type === CONTEXT ? `${CONTEXT}` : `${type} ${ident}`;
			const t = BigInt(ns), had = this.first.get(key);
			if (!had || t < had.ns) this.first.set(key, { ns: t, sets: [{ inst, json }] });
			else if (t === had.ns) had.sets.push({ inst, json });
		}
	}

	sets(type, ident) {
		const r = this.first.get(type === CONTEXT ? `${CONTEXT}` : `${type} ${ident}`);
		return r ? r.sets : [];
	}

	// of returns {merged, insts} for a metric: merged, its labels over
	// every level (null when the archive has none for it); insts, where
	// its instance domain has an instances record, each instance's own
	// set merged over them, by instance number (null otherwise; an
	// instance without a set of its own has the metric's labels).
	//
	// A cluster's record is looked up as libpcp looks it up in an
	// archive, by the metric's own pmID: pmlogger records it with item 0,
	// so pminfo -a -l shows a cluster's labels for that item only.
	of(pmid, indom) {
		const id = identNum(pmid), hasIndom = /^\d+\.\d+$/.test(indom || "");
		const levels = [this.sets(CONTEXT), this.sets(DOMAIN, id >>> 22), hasIndom ? this.sets(INDOM, indomNum(indom)) : [],
			this.sets(CLUSTER, id), this.sets(ITEM, id)];
		const own = hasIndom ? this.sets(INSTANCES, indomNum(indom)) : [];
		if (levels.every((l) => !l.length) && !own.length) return { merged: null, insts: null };
		const merged = {};
		for (const l of levels) mergeInto(merged, l.map((s) => s.json).filter(Boolean));
		if (!own.length) return { merged, insts: null };
		const insts = new Map(own.map((s) => [s.inst, mergeInto({ ...merged }, s.json ? [s.json] : [])]));
		return { merged, insts };
	}
}
