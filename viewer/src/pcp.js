// PCPStream gathers the decoded PDUs of a PCP PDU stream (one direction
// of a pmcd conversation, as `perfwire pdu` prints them, or what perfwire
// serve --pmcd relays) into what a person looks at: each metric's name,
// descriptor, help text and labels, its instances' names, and its values
// over time from the RESULTs, a counter's also as rates.

// identNum is a pmID's dotted text as the 32-bit ident that TEXT and
// LABEL PDUs carry (domain 9 bits, cluster 12, item 10).
export function identNum(pmid) {
	const [d, c, i] = pmid.split(".").map(Number);
	return ((d << 22) | (c << 10) | i) >>> 0;
}

// indomNum is an instance domain's dotted text as its 32-bit ident
// (domain 9 bits, serial 22).
export function indomNum(indom) {
	const [d, s] = indom.split(".").map(Number);
	return ((d << 22) | s) >>> 0;
}

// The label levels (PM_LABEL_*), merged in this order, later ones winning;
// an instance's own set (INSTANCES) over them all.
const CONTEXT = 1, DOMAIN = 2, INDOM = 4, CLUSTER = 8, ITEM = 16, INSTANCES = 32;

// labelsText writes a merged label set as pminfo -l does: compact JSON,
// names in order.
export function labelsText(set) {
	const sorted = (v) => (v && typeof v === "object" && !Array.isArray(v) ?
		Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v);
	return JSON.stringify(sorted(set));
}

// mergeInto merges label sets (JSON texts) into set, later ones winning.
export function mergeInto(set, jsons) {
	for (const json of jsons) { try { Object.assign(set, JSON.parse(json)); } catch { /* shown as sent */ } }
	return set;
}

// numeric returns a value's number, or null for strings, aggregates and
// event records, which are shown as their latest value instead.
function numeric(v) {
	if (typeof v.value === "number" || typeof v.value === "bigint") return Number(v.value);
	return null;
}

// insitu reads a 32-bit insitu word (sent as a signed integer) as its
// metric's type says: unsigned for u32, the float's bits for float.
function insitu(type) {
	const i32 = new Int32Array(1), f32 = new Float32Array(i32.buffer);
	switch (type) {
	case "u32": return (x) => x >>> 0;
	case "float": return (x) => { i32[0] = x; return f32[0]; };
	}
	return (x) => x;
}

function shown(v) {
	if (v.records) return `${v.records.length} event records`;
	if (v.hex !== undefined) return "[" + v.hex + "]";
	return String(v.value);
}

// The time units of pmUnitsStr, smallest first; "sec" is index 3.
const TIME = ["nanosec", "microsec", "millisec", "sec", "min", "hour"];

const SPACE = ["byte", "Kbyte", "Mbyte", "Gbyte", "Tbyte", "Pbyte", "Ebyte", "Zbyte", "Ybyte"];
const sext4 = (x) => ((x & 0xf) ^ 8) - 8;

// unitsText writes a pmUnits word as pmUnitsStr does (pcp.Units.String):
// positive dimensions first ("Kbyte", "sec^2", "count x 10^6"), then "/"
// and the negative ones; "" for none, or the count scale alone.
export function unitsText(w) {
	const ds = sext4(w >>> 28), dt = sext4(w >>> 24), dc = sext4(w >>> 20);
	const ss = (w >>> 16) & 0xf, st = (w >>> 12) & 0xf, sc = sext4(w >>> 8);
	const pow = (p) => (p !== 1 ? "^" + p : "");
	const ten = sc === 0 ? "" : sc === 1 ? "x 10" : "x 10^" + sc;
	const space = (p) => (ss < SPACE.length ? SPACE[ss] : "space-" + ss) + pow(p);
	const time = (p) => (st < TIME.length ? TIME[st] : "time-" + st) + pow(p);
	const count = (p) => "count" + (ten ? " " + ten : "") + pow(p);
	const out = [];
	if (ds > 0) out.push(space(ds));
	if (dt > 0) out.push(time(dt));
	if (dc > 0) out.push(count(dc));
	if (ds < 0 || dt < 0 || dc < 0) {
		out.push("/");
		if (ds < 0) out.push(space(-ds));
		if (dt < 0) out.push(time(-dt));
		if (dc < 0) out.push(count(-dc));
	}
	return out.length ? out.join(" ") : ten;
}

// rateOf says how a counter's values become rates, as pmval converts
// them: per second, except that a counter of time (units with a time
// dimension) becomes a time utilization, the interval taken in the
// counter's own time unit. It returns {scale: seconds to that unit, units:
// the rate's units}.
export function rateOf(units) {
	const unit = (units || "").split(/[\s/^]+/).find((w) => TIME.includes(w));
	if (unit === undefined) return { scale: 1, units: (units ? units + " " : "") + "/ sec" };
	const st = TIME.indexOf(unit);
	return { scale: st > 3 ? Math.pow(60, 3 - st) : Math.pow(1000, 3 - st), units: "time utilization" };
}

// rates are a counter's rates between consecutive values: (v - prev) /
// (dt × scale); none for the first value, none when the count went down
// (a restart or a wrap) or time did not advance.
export function rates(t, v, scale) {
	const out = new Array(v.length).fill(null);
	for (let i = 1; i < v.length; i++) {
		const dt = t[i] - t[i - 1], d = v[i] - v[i - 1];
		if (dt > 0 && d >= 0) out[i] = d / (dt * scale);
	}
	return out;
}

function listIn(map, key) {
	if (!map.has(key)) map.set(key, []);
	return map.get(key);
}

export class PCPStream {
	// window says how many seconds of values to keep before the newest
	// RESULT's time (0: all of them); a live stream keeps a window.
	constructor(window = () => 0) {
		this.window = window;
		this.newest = -Infinity; // the latest RESULT's time
		this.pdus = 0;
		this.types = {}; // PDU type -> count
		this.descs = new Map(); // pmid -> desc
		this.names = new Map(); // pmid -> name
		this.asked = null; // the names of a PMNS_NAMES, until the PMNS_IDS that answers it
		this.instances = new Map(); // indom -> Map(inst -> name)
		this.texts = new Map(); // ident -> [text, ...]
		this.labels = new Map(); // kind -> Map(ident -> [json, ...])
		this.instLabels = new Map(); // indom ident -> Map(inst -> json): the INSTANCES level
		this.series = new Map(); // pmid -> Map(inst -> {t: [], v: []})
		this.latest = new Map(); // pmid -> Map(inst -> text)
		this.errors = new Map(); // pmid -> error code of its last value set
		this.insitu = new Set(); // pmids whose values came insitu
	}

	add(p) {
		this.pdus++;
		this.types[p.type] = (this.types[p.type] || 0) + 1;
		if (p.type !== "PMNS_IDS") this.asked = p.type === "PMNS_NAMES" ? p.names : null;
		switch (p.type) {
		case "PMNS_IDS":
			// The answer to a name lookup: the pmIDs of the names asked
			// for, in their order.
			if (this.asked && this.asked.length === p.pmids.length) {
				p.pmids.forEach((id, i) => { if (id !== "PM_ID_NULL") this.names.set(id, this.asked[i]); });
			}
			this.asked = null;
			break;
		case "DESC":
			this.descs.set(p.desc.pmid, p.desc);
			break;
		case "DESCS":
			for (const d of p.descs) this.descs.set(d.pmid, d);
			break;
		case "INSTANCE": {
			if (!this.instances.has(p.indom)) this.instances.set(p.indom, new Map());
			const m = this.instances.get(p.indom);
			for (const i of p.instances) if (i.name) m.set(i.inst, i.name);
			break;
		}
		case "TEXT":
			listIn(this.texts, Number(p.ident)).push(p.text);
			break;
		case "LABEL":
			if (!this.labels.has(p.kind)) this.labels.set(p.kind, new Map());
			// A level's sets replace what it had: pmcd answers with all of them.
			this.labels.get(p.kind).set(Number(p.ident), p.sets.filter((s) => s.json).map((s) => s.json));
			// An instance domain's instances: a set each, the instance's own.
			if (p.kind === INSTANCES) this.instLabels.set(Number(p.ident), new Map(p.sets.map((s) => [s.inst, s.json])));
			break;
		case "RESULT":
		case "HIGHRES_RESULT": {
			const t = Number(p.sec) + Number(p.nsec) / 1e9;
			if (t > this.newest) this.newest = t;
			const cut = this.cutoff();
			for (const vs of p.value_sets) {
				if (vs.numval < 0) { this.errors.set(vs.pmid, vs.numval); continue; }
				this.errors.delete(vs.pmid);
				if (vs.valfmt === 0) this.insitu.add(vs.pmid);
				for (const v of vs.values || []) {
					const n = numeric(v);
					if (n !== null) {
						if (!this.series.has(vs.pmid)) this.series.set(vs.pmid, new Map());
						const m = this.series.get(vs.pmid);
						if (!m.has(v.inst)) m.set(v.inst, { t: [], v: [], sent: 0 }); // sent: how many result(true) has given
						const s = m.get(v.inst);
						s.t.push(t);
						s.v.push(n);
						// Older values go; one stays before the window, for
						// the first rate in it.
						let k = 0;
						while (k + 1 < s.t.length && s.t[k + 1] < cut) k++;
						if (k) { s.t.splice(0, k); s.v.splice(0, k); s.sent = Math.max(0, s.sent - k); }
					}
					if (!this.latest.has(vs.pmid)) this.latest.set(vs.pmid, new Map());
					this.latest.get(vs.pmid).set(v.inst, shown(v));
				}
			}
			break;
		}
		}
	}

	// labelsOf returns a metric's labels: the sets sent for its item, and
	// merged, those of every level that applies (context, domain, instance
	// domain, cluster, item; a later level wins on a name), as pminfo -l
	// shows them, or null when the stream has no level but the item's. A
	// cluster's sets are those sent with the metric's own pmID as ident,
	// as pmGetClusterLabels asks for them.
	//
	// insts are each instance's labels, its own set (the INSTANCES level)
	// merged over the metric's, as pminfo -l lists them after the metric's:
	// {inst, name, labels} per instance the stream named, in the order of
	// its INSTANCE PDU; null when the stream has no instance labels for
	// the metric's instance domain.
	labelsOf(pmid, indom) {
		const id = identNum(pmid), d = Number(pmid.split(".")[0]);
		const at = (kind, ident) => (this.labels.get(kind) || new Map()).get(ident) || [];
		const item = at(ITEM, id);
		const hasIndom = /^\d+\.\d+$/.test(indom || "");
		const levels = [at(CONTEXT, 0xffffffff), at(DOMAIN, d), hasIndom ? at(INDOM, indomNum(indom)) : [],
			at(CLUSTER, id), item];
		const own = hasIndom ? this.instLabels.get(indomNum(indom)) : undefined;
		if (levels.slice(0, 4).every((l) => !l.length) && !own) return { item, merged: null, insts: null };
		const merged = {};
		for (const l of levels) mergeInto(merged, l);
		let insts = null;
		if (own) {
			const names = this.instances.get(indom) || new Map();
			const all = [...new Set([...names.keys(), ...own.keys()])];
			insts = all.map((inst) => ({ inst, name: names.get(inst) || "", labels: mergeInto({ ...merged }, own.has(inst) && own.get(inst) ? [own.get(inst)] : []) }));
		}
		return { item, merged, insts };
	}

	// cutoff is the time before which values are not shown.
	cutoff() {
		const w = this.window();
		return w > 0 ? this.newest - w : -Infinity;
	}

	// result is what the page draws: one entry per metric seen in a DESC or
	// a RESULT, with instance names resolved where an INSTANCE PDU gave them.
	//
	// result(true) is a live stream's batch: each series has only the
	// points since the last batch (t and v as Float64Arrays, insitu words
	// converted) and no rates, the latest values no rate; the page's
	// PCPLive appends them to what it has and converts the rates. The
	// rest (names, descriptors, help, labels, latest values) is small and
	// comes whole. buffers lists the arrays to transfer.
	result(delta = false) {
		const buffers = [];
		const pmids = new Set([...this.descs.keys(), ...this.latest.keys(), ...this.errors.keys()]);
		const cut = this.cutoff();
		const metrics = [...pmids].sort((a, b) => {
			const x = a.split(".").map(Number), y = b.split(".").map(Number);
			return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
		}).map((pmid) => {
			const d = this.descs.get(pmid) || { pmid, type: "?", indom: "?", sem: "?", units: "" };
			const names = this.instances.get(d.indom) || new Map();
			// Insitu words are typed by the descriptor, which the stream
			// printer does not know but the viewer does.
			const conv = this.insitu.has(pmid) ? insitu(d.type) : (x) => x;
			const counter = d.sem === "counter";
			const rate = counter ? rateOf(d.units) : null;
			const series = [...(this.series.get(pmid) || new Map())].map(([inst, s]) => {
				if (delta) {
					const t = Float64Array.from(s.t.slice(s.sent)), v = Float64Array.from(s.v.slice(s.sent), conv);
					s.sent = s.t.length;
					buffers.push(t.buffer, v.buffer);
					return { inst, name: names.get(inst) || "", t, v };
				}
				const v = s.v.map(conv), r = counter ? rates(s.t, v, rate.scale) : null;
				let from = 0; // the values before the window, kept for a rate
				while (from < s.t.length && s.t[from] < cut) from++;
				return { inst, name: names.get(inst) || "", t: s.t.slice(from), v: v.slice(from), rate: r && r.slice(from) };
			});
			const latest = [...(this.latest.get(pmid) || new Map())].map(([inst, text]) => {
				const s = series.find((x) => x.inst === inst);
				return {
					inst, name: names.get(inst) || "", text: this.insitu.has(pmid) ? String(conv(Number(text))) : text,
					rate: s && counter && !delta ? s.rate[s.rate.length - 1] ?? null : null,
				};
			});
			const { item, merged, insts } = this.labelsOf(pmid, d.indom);
			if (insts) for (const l of latest) { const x = insts.find((i) => i.inst === l.inst); l.labels = x ? labelsText(x.labels) : ""; }
			return {
				pmid, name: this.names.get(pmid) || "", desc: d, help: this.texts.get(identNum(pmid)) || [], labels: item, merged, instLabels: insts,
				counter, rateUnits: rate ? rate.units : "", series, latest, error: this.errors.get(pmid),
			};
		});
		return { pdus: this.pdus, types: this.types, metrics, buffers };
	}
}

// PCPLive gathers a live PDU stream's batches (PCPStream.result(true))
// on the page into what result() gives: per metric the batch's names,
// descriptor, help, labels and latest values, and its series, the points
// of every batch so far within the window (seconds before the newest
// point; one before it kept for the first rate), a counter's rates
// converted as each point comes, as pmval converts them.
export class PCPLive {
	constructor(window = () => 0) {
		this.window = window;
		this.newest = -Infinity;
		this.series = new Map(); // pmid -> Map(inst -> {t: [], v: [], rate: []})
		this.points = 0; // in the last batch
	}

	add(batch) {
		this.points = 0;
		for (const m of batch.metrics) {
			const scale = m.counter ? rateOf(m.desc.units).scale : 1;
			if (!this.series.has(m.pmid)) this.series.set(m.pmid, new Map());
			const ms = this.series.get(m.pmid);
			for (const p of m.series) {
				if (!ms.has(p.inst)) ms.set(p.inst, { t: [], v: [], rate: [] });
				const s = ms.get(p.inst);
				for (let i = 0; i < p.t.length; i++) {
					const n = s.t.length;
					let r = null;
					if (m.counter && n) {
						const dt = p.t[i] - s.t[n - 1], d = p.v[i] - s.v[n - 1];
						if (dt > 0 && d >= 0) r = d / (dt * scale);
					}
					s.t.push(p.t[i]); s.v.push(p.v[i]); s.rate.push(r);
					if (p.t[i] > this.newest) this.newest = p.t[i];
				}
				this.points += p.t.length;
			}
		}
		const w = this.window(), cut = w > 0 ? this.newest - w : -Infinity;
		const metrics = batch.metrics.map((m) => {
			const ms = this.series.get(m.pmid);
			const series = m.series.map((p) => {
				const s = ms.get(p.inst);
				// Older points go; one stays before the window, for the
				// first rate in it.
				let k = 0;
				while (k + 1 < s.t.length && s.t[k + 1] < cut) k++;
				if (k) { s.t.splice(0, k); s.v.splice(0, k); s.rate.splice(0, k); }
				let from = 0;
				while (from < s.t.length && s.t[from] < cut) from++;
				return { inst: p.inst, name: p.name, t: s.t.slice(from), v: s.v.slice(from), rate: m.counter ? s.rate.slice(from) : null };
			});
			const latest = m.latest.map((l) => {
				const s = series.find((x) => x.inst === l.inst);
				return { ...l, rate: s && m.counter ? s.rate[s.rate.length - 1] ?? null : null };
			});
			return { ...m, series, latest };
		});
		return { pdus: batch.pdus, types: batch.types, metrics, points: this.points };
	}
}
