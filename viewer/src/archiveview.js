// The view of a PCP archive, as pmchart draws one: a tree of the metrics
// (their names split at the dots), and for each metric picked a chart of
// its values over time, one line per instance, on one time axis; a
// counter is drawn as its rate per second between consecutive records,
// as pmval shows it. Under the charts, the picked metric's values as a
// table, record by record.
import { timeChart, PALETTE, XGroup } from "./chart.js";
import { VTable } from "./table.js";
import { labelsText, rateOf, unitsText } from "./pcp.js";
import { ArchiveLabels } from "./archive.js";

const $ = (id) => document.getElementById(id);
const xgroup = new XGroup();
let arch = null; // what the worker sent: {t, stamps, marks, metrics, skipped, names}
let byName = new Map();
let charted = []; // the names charted, in the order picked
let drawn = new Map(); // name -> {x, series: [{inst, instance, y}]}
let values = null, valueRows = [], valueName = "";

// number writes a value as perfwire archive --json does for the numbers
// a double holds exactly; rate writes a rate with nine significant digits.
const number = (v) => String(v);
const rate = (v) => (Number.isNaN(v) ? "" : String(+v.toPrecision(9)));

export function archiveViews() {
	$("archtree").addEventListener("click", (e) => {
		const leaf = e.target.closest(".leaf");
		if (leaf) toggle(leaf.dataset.name);
	});
	$("archfilter").addEventListener("input", (e) => drawTree(e.target.value.toLowerCase()));
	$("vcrstart").addEventListener("click", () => { pause(); setPos(0); });
	$("vcrback").addEventListener("click", () => step(-1));
	$("vcrplay").addEventListener("click", () => (vcr.playing ? pause() : play()));
	$("vcrstep").addEventListener("click", () => step(1));
	$("vcrend").addEventListener("click", () => { pause(); setPos(Infinity); });
	$("vcrspeed").addEventListener("change", (e) => { vcr.speed = Number(e.target.value); if (vcr.playing) play(); });
	window.addEventListener("resize", () => {
		for (const u of xgroup.charts) u.setSize({ width: u.root.parentElement.clientWidth, height: u.height });
	});
}

// showArchive shows an archive and returns what the status line says of
// it; api.archive is the embedding API's view of it.
export function showArchive(a, api) {
	arch = a;
	// The .meta's descriptor and help text of each metric with values.
	const meta = new Map((a.meta || []).map((d) => [d.pmid, d]));
	const labels = new ArchiveLabels(a.labels);
	for (const m of a.metrics) {
		m.d = meta.get(m.pmid) || null;
		m.units = m.d ? unitsText(m.d.pmunits) : "";
		m.rateUnits = m.counter ? rateOf(m.units).units : "";
		// Its labels, and each instance's, as pminfo -a -l lists them;
		// the instances are all those the archive has values for (pminfo
		// lists those of the instance domain at the archive's start).
		const { merged, insts } = labels.of(m.pmid, m.d && m.d.indom);
		m.labels = merged;
		m.instLabels = merged && m.d && /^\d+\.\d+$/.test(m.d.indom) ?
			m.series.filter((x) => x.inst !== -1).map((x) => ({ inst: x.inst, name: x.instance, labels: (insts && insts.get(x.inst)) || merged })) : null;
	}
	byName = new Map(a.metrics.map((m) => [m.name, m]));
	for (const u of [...xgroup.charts]) u.destroy();
	xgroup.charts.clear();
	charted = []; drawn = new Map();
	pause();
	vcr.pos = a.t.length - 1; // the whole archive, as it opens
	$("archcharts").replaceChildren();
	$("archfilter").value = "";
	drawTree("");
	const span = a.t.length ? a.t[a.t.length - 1] - a.t[0] : 0;
	const what = `${a.t.length} records (${a.marks.length} marks), ${a.metrics.length} metrics, ` +
		`${span.toFixed(3)} s from ${a.stamps[0] || "-"}` + (a.skipped ? `; ${a.skipped} records out of order skipped` : "");
	$("archcount").textContent = `(${a.metrics.length})`;
	$("summary").textContent = `PCP archive ${a.names.join(", ")} — ${what}`;
	$("summary").classList.toggle("warn", !!a.skipped);
	api.archive = {
		records: a.t.length, marks: a.marks.length, skipped: a.skipped, files: a.names, start: a.stamps[0] || null,
		metrics: a.metrics.map((m) => ({
			name: m.name, pmid: m.pmid, counter: m.counter, kinds: m.kinds, values: m.values,
			instances: m.series.map((s) => (s.inst === -1 ? null : s.instance)),
			// From the .meta (null when it does not describe the metric).
			type: m.d && m.d.type, indom: m.d && m.d.indom, sem: m.d && m.d.sem, units: m.d ? m.units : null, oneline: m.d ? m.d.oneline || "" : null,
			help: m.d ? m.d.help || "" : null, rateUnits: m.rateUnits,
			// From the .meta's label records: merged over the levels, and
			// per instance ([{inst, name, labels}]); null for none.
			labels: m.labels, instLabels: m.instLabels,
		})),
		get charted() { return [...charted]; },
		show: (name) => { if (!charted.includes(name)) toggle(name); },
		hide: (name) => { if (charted.includes(name)) toggle(name); },
		// rows(name): the values table of name, cell by cell, as shown
		// when name is picked: record #, time, inst, instance, value, rate.
		rows: (name) => tableRows(byName.get(name) || { series: [] }).map(cells),
		// chart(name): what name's chart draws: x (s from the first
		// record), per instance y (rates for a counter; null for none).
		chart: (name) => drawn.get(name) || null,
		// vcr: pmtime's controls. position is a record's index (0 the
		// first); the charts show the archive up to it, as wide as they
		// showed; play moves it with the archive's time at speed archive
		// seconds per second, to the last record; step(n) moves n records;
		// at() is what the page shows at the position: each charted
		// metric's values in that record, as its values table writes them;
		// range the charts' x range (s from the first record).
		vcr: {
			get position() { return vcr.pos; },
			get playing() { return vcr.playing; },
			get range() { const u = [...xgroup.charts][0]; return u ? [u.scales.x.min, u.scales.x.max] : null; },
			play: (speed) => { if (speed) { vcr.speed = speed; $("vcrspeed").value = String(speed); } play(); },
			pause: () => pause(),
			step: (n) => step(n),
			seek: (r) => { pause(); setPos(r); },
			at: () => atPos(),
		},
	};
	setPos(vcr.pos);
	// The first counter is charted, else the first metric with numbers.
	const first = a.metrics.find((m) => m.counter && m.kinds.includes("number")) || a.metrics.find((m) => m.kinds.includes("number"));
	if (first) toggle(first.name);
	return what;
}

// The tree: names split at the dots, a node per part.
function drawTree(filter) {
	const root = { kids: new Map() };
	for (const m of arch.metrics) {
		if (filter && !m.name.toLowerCase().includes(filter) && !m.pmid.includes(filter)) continue;
		let n = root;
		for (const part of m.name.split(".")) {
			if (!n.kids.has(part)) n.kids.set(part, { kids: new Map() });
			n = n.kids.get(part);
		}
		n.metric = m;
	}
	const open = filter !== "" || arch.metrics.length <= 200;
	const el = (node, name, path) => {
		const out = [];
		if (node.metric) {
			const m = node.metric, d = document.createElement("div");
			d.className = "leaf" + (charted.includes(m.name) ? " sel" : "");
			d.dataset.name = m.name;
			d.title = `${m.name} (PMID ${m.pmid}${m.units ? ", " + m.units : ""})` + (m.d && m.d.oneline ? ": " + m.d.oneline : "") +
				(m.counter ? ` — a counter, charted as its rate (${m.rateUnits})` : "");
			d.textContent = name;
			const small = document.createElement("small");
			small.textContent = ` ${m.values}` + (m.counter ? " · rate" : "") + (m.kinds.includes("number") ? "" : " · " + m.kinds.join(", "));
			d.append(small);
			out.push(d);
		}
		if (node.kids.size) {
			const list = [...node.kids].sort((a, b) => (a[0] < b[0] ? -1 : 1)).flatMap(([k, v]) => el(v, k, path ? path + "." + k : k));
			if (!name) return list;
			const det = document.createElement("details");
			det.open = open;
			const sum = document.createElement("summary");
			sum.textContent = name;
			det.append(sum, ...list);
			out.push(det);
		}
		return out;
	};
	$("archtree").replaceChildren(...el(root, "", ""));
}

// toggle charts name, or removes its chart; the values table follows the
// metric picked last.
function toggle(name) {
	const m = byName.get(name);
	if (!m) return;
	const i = charted.indexOf(name);
	if (i >= 0) {
		charted.splice(i, 1);
		const box = document.getElementById(chartId(name));
		if (box && box._chart) { xgroup.charts.delete(box._chart); box._chart.destroy(); }
		if (box) box.remove();
		drawn.delete(name);
		if (valueName === name) showValues(charted.length ? byName.get(charted[charted.length - 1]) : null);
	} else {
		charted.push(name);
		drawChart(m);
		showValues(m);
	}
	for (const d of $("archtree").querySelectorAll(".leaf")) d.classList.toggle("sel", charted.includes(d.dataset.name));
	xgroup.span();
	setPos(vcr.pos); // the charts end at the VCR's position
}

// The VCR, as pmtime drives pmchart: a position in the archive's time (a
// record); the charts end there.
const vcr = { pos: 0, playing: false, speed: 1, timer: 0 };

// setPos moves the position to record r (clamped): the charts show the
// time up to it, as wide a range as they showed (all of it at most), and
// the charted metrics' values in it are listed.
function setPos(r) {
	if (!arch || !arch.t.length) return;
	const n = arch.t.length;
	vcr.pos = Math.max(0, Math.min(n - 1, Number.isFinite(r) ? Math.round(r) : n - 1));
	const end = arch.t[vcr.pos] - arch.t[0], all = arch.t[n - 1] - arch.t[0];
	const u = [...xgroup.charts][0];
	const width = u && u.scales.x.min != null ? Math.min(u.scales.x.max - u.scales.x.min, all || 1) : all || 1;
	xgroup.busy = true;
	try { for (const c of xgroup.charts) c.setScale("x", { min: end - width, max: end }); } finally { xgroup.busy = false; }
	$("archpos").textContent = `record ${vcr.pos + 1} of ${n} · ${arch.stamps[vcr.pos]} · ${end.toFixed(3)} s` +
		(arch.marks.includes(vcr.pos) ? " · a mark (a gap in the recording)" : "");
	showNow();
}

// atPos lists each charted metric's values in the position's record, as
// its values table writes them: {record, stamp, values: {name: [{inst,
// instance, value, rate}]}}.
function atPos() {
	const values = {};
	for (const name of charted) {
		const m = byName.get(name), out = [];
		for (const x of m.series) {
			// The series' records are in order: a binary search.
			let lo = 0, hi = x.r.length;
			while (lo < hi) { const mid = (lo + hi) >> 1; if (x.r[mid] < vcr.pos) lo = mid + 1; else hi = mid; }
			if (lo === x.r.length || x.r[lo] !== vcr.pos) continue;
			out.push({ inst: x.inst, instance: x.inst === -1 ? "" : x.instance, value: x.text && x.text[lo] !== null ? x.text[lo] : number(x.v[lo]),
				rate: m.counter ? rate(x.rate[lo]) : "" });
		}
		values[name] = out;
	}
	return { record: vcr.pos, stamp: arch.stamps[vcr.pos], values };
}

function showNow() {
	const now = atPos();
	$("archnow").textContent = Object.entries(now.values).map(([name, vs]) => `${name}: ` + (vs.length ?
		vs.map((v) => (v.instance ? v.instance + " " : "") + v.value + (v.rate !== "" ? ` (${v.rate}/s)` : "")).join(", ") : "no value")).join("\n");
}

// play moves the position with the archive's time, speed archive seconds
// per second, from where it is (from the start when at the end) to the
// last record.
function play() {
	if (!arch || arch.t.length < 2) return;
	clearInterval(vcr.timer);
	if (vcr.pos >= arch.t.length - 1) setPos(0);
	const from = arch.t[vcr.pos], wall = performance.now(), view = arch;
	vcr.playing = true;
	$("vcrplay").textContent = "⏸";
	vcr.timer = setInterval(() => {
		if (arch !== view || $("archview").hidden) { pause(); return; }
		const at = from + ((performance.now() - wall) / 1000) * vcr.speed;
		let r = vcr.pos;
		while (r + 1 < arch.t.length && arch.t[r + 1] <= at) r++;
		if (r !== vcr.pos) setPos(r);
		if (r >= arch.t.length - 1) pause();
	}, 40);
}

function pause() {
	clearInterval(vcr.timer);
	vcr.playing = false;
	if ($("vcrplay")) $("vcrplay").textContent = "▶";
}

function step(n) {
	pause();
	setPos(vcr.pos + n);
}

const chartId = (name) => "arch-" + name.replace(/[^A-Za-z0-9_-]/g, "_");

// drawChart draws a metric's numeric series over time: the values, or a
// counter's rates; a mark record breaks every line.
function drawChart(m) {
	const box = document.createElement("div");
	box.className = "chart small";
	box.id = chartId(m.name);
	$("archcharts").append(box);
	const series = m.series.filter((s) => s.v.some((x) => !Number.isNaN(x)));
	const rows = new Set(arch.marks);
	for (const s of series) for (const r of s.r) rows.add(r);
	const order = [...rows].sort((a, b) => a - b);
	const at = new Map(order.map((r, i) => [r, i]));
	const ys = series.map((s) => {
		const y = new Array(order.length).fill(null);
		const src = m.counter ? s.rate : s.v;
		s.r.forEach((r, i) => { if (!Number.isNaN(src[i])) y[at.get(r)] = src[i]; });
		return y;
	});
	const x = order.map((r) => arch.t[r] - arch.t[0]);
	const title = `${m.name}` + (m.counter ? ` — rate (${m.rateUnits}; a counter)` : m.units ? ` (${m.units})` : "") + ` · PMID ${m.pmid}`;
	const labels = series.map((s, i) => ({ label: s.inst === -1 ? m.name : s.instance || String(s.inst), stroke: PALETTE[i % PALETTE.length], width: 2 }));
	timeChart(box, title, labels, [x, ...ys], "archive", {
		x: `seconds from ${arch.stamps[0]}`, y: m.counter ? m.rateUnits : m.units || "value", group: xgroup, height: 200,
		points: x.length < 120, value: (v) => (m.counter ? rate(v) : number(v)),
	});
	drawn.set(m.name, { x, series: series.map((s, i) => ({ inst: s.inst, instance: s.instance, y: ys[i] })) });
}

// tableRows lists a metric's values record by record, instances in
// order: {id, r, stamp, inst, instance, value, rate}.
function tableRows(m) {
	const rows = [];
	for (const s of m.series) {
		for (let i = 0; i < s.r.length; i++) {
			const text = s.text && s.text[i] !== null ? s.text[i] : number(s.v[i]);
			rows.push({ id: rows.length, r: s.r[i], stamp: arch.stamps[s.r[i]], inst: s.inst, instance: s.inst === -1 ? "" : s.instance, value: text,
				rate: m.counter ? rate(s.rate[i]) : "" });
		}
	}
	rows.sort((a, b) => a.r - b.r || a.inst - b.inst);
	return rows;
}

const COLUMNS = [
	{ key: "r", label: "record", num: true, text: (x) => x.r + 1 },
	{ key: "stamp", label: "time (UTC)", cls: "t2", text: (x) => x.stamp },
	{ key: "inst", label: "inst", num: true, text: (x) => (x.inst === -1 ? "" : x.inst) },
	{ key: "instance", label: "instance", text: (x) => x.instance },
	{ key: "value", label: "value", cls: "cmd", text: (x) => x.value },
];
const cells = (x) => [...COLUMNS, { text: (y) => y.rate }].map((c) => String(c.text(x)));

function showValues(m) {
	valueName = m ? m.name : "";
	$("archvaltitle").textContent = m ? `${m.name}: ${m.values} values` + (m.units ? ` in ${m.units}` : "") +
		(m.counter ? ` (a counter: rate since the record before, ${m.rateUnits})` : "") : "";
	// The help text, where the archive's .meta has it.
	// and the labels, as pminfo -l prints them: the metric's, then each
	// instance's.
	const labels = m && m.labels ? ["labels " + labelsText(m.labels),
		...(m.instLabels || []).map((i) => `inst [${i.inst} or ${JSON.stringify(i.name)}] labels ${labelsText(i.labels)}`)].join("\n") : "";
	$("archhelp").textContent = m && m.d ? [m.d.oneline, m.d.help, labels].filter(Boolean).join("\n\n") : labels;
	if (!m) { $("archvalues").replaceChildren(); values = null; return; }
	values = new VTable($("archvalues"), m.counter ? [...COLUMNS, { key: "rateN", label: m.rateUnits === "time utilization" ? "utilization" : "rate /s", num: true, text: (x) => x.rate }] : COLUMNS,
		{ sortKey: "r", key: "id" });
	valueRows = tableRows(m).map((x) => ({ ...x, rateN: x.rate === "" ? -Infinity : Number(x.rate) }));
	values.setRows(valueRows);
}
