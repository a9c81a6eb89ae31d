// PCPStream gathers the decoded PDUs of a recorded PCP stream (one
// direction of a pmcd conversation, as `perfwire pdu` prints them) into
// what a person looks at: each metric's descriptor, help text and labels,
// its instances' names, and its values over time from the RESULTs.

// identHex is a pmID's dotted text as the 32-bit hex ident that TEXT and
// LABEL PDUs carry (domain 9 bits, cluster 12, item 10).
export function identHex(pmid) {
	const [d, c, i] = pmid.split(".").map(Number);
	return (((d << 22) | (c << 10) | i) >>> 0).toString(16).padStart(8, "0");
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

export class PCPStream {
	constructor() {
		this.pdus = 0;
		this.types = {}; // PDU type -> count
		this.descs = new Map(); // pmid -> desc
		this.instances = new Map(); // indom -> Map(inst -> name)
		this.texts = new Map(); // ident hex -> [text, ...]
		this.labels = new Map(); // ident hex -> [json, ...]
		this.series = new Map(); // pmid -> Map(inst -> {t: [], v: []})
		this.latest = new Map(); // pmid -> Map(inst -> text)
		this.errors = new Map(); // pmid -> error code of its last value set
		this.insitu = new Set(); // pmids whose values came insitu
	}

	add(p) {
		this.pdus++;
		this.types[p.type] = (this.types[p.type] || 0) + 1;
		switch (p.type) {
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
			if (!this.texts.has(p.ident)) this.texts.set(p.ident, []);
			this.texts.get(p.ident).push(p.text);
			break;
		case "LABEL":
			if (!this.labels.has(p.ident)) this.labels.set(p.ident, []);
			for (const s of p.sets) this.labels.get(p.ident).push(s.json);
			break;
		case "RESULT":
		case "HIGHRES_RESULT": {
			const t = Number(p.sec) + Number(p.nsec) / 1e9;
			for (const vs of p.value_sets) {
				if (vs.numval < 0) { this.errors.set(vs.pmid, vs.numval); continue; }
				if (vs.valfmt === 0) this.insitu.add(vs.pmid);
				for (const v of vs.values || []) {
					const n = numeric(v);
					if (n !== null) {
						if (!this.series.has(vs.pmid)) this.series.set(vs.pmid, new Map());
						const m = this.series.get(vs.pmid);
						if (!m.has(v.inst)) m.set(v.inst, { t: [], v: [] });
						m.get(v.inst).t.push(t);
						m.get(v.inst).v.push(n);
					}
					if (!this.latest.has(vs.pmid)) this.latest.set(vs.pmid, new Map());
					this.latest.get(vs.pmid).set(v.inst, shown(v));
				}
			}
			break;
		}
		}
	}

	// result is what the page draws: one entry per metric seen in a DESC or
	// a RESULT, with instance names resolved where an INSTANCE PDU gave them.
	result() {
		const pmids = new Set([...this.descs.keys(), ...this.latest.keys(), ...this.errors.keys()]);
		const metrics = [...pmids].sort((a, b) => {
			const x = a.split(".").map(Number), y = b.split(".").map(Number);
			return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
		}).map((pmid) => {
			const d = this.descs.get(pmid) || { pmid, type: "?", indom: "?", sem: "?", units: "" };
			const names = this.instances.get(d.indom) || new Map();
			const hex = identHex(pmid);
			// Insitu words are typed by the descriptor, which the stream
			// printer does not know but the viewer does.
			const conv = this.insitu.has(pmid) ? insitu(d.type) : (x) => x;
			const series = [...(this.series.get(pmid) || new Map())].map(([inst, s]) => ({ inst, name: names.get(inst) || "", t: s.t, v: s.v.map(conv) }));
			const latest = [...(this.latest.get(pmid) || new Map())].map(([inst, text]) => ({
				inst, name: names.get(inst) || "", text: this.insitu.has(pmid) ? String(conv(Number(text))) : text,
			}));
			return { pmid, desc: d, help: this.texts.get(hex) || [], labels: this.labels.get(hex) || [], series, latest, error: this.errors.get(pmid) };
		});
		return { pdus: this.pdus, types: this.types, metrics };
	}
}
