// The views of the PCP formats: a recorded PDU stream's metrics with a
// chart of each one's values over time, and an MMV file's metrics and
// values as mmvdump lists them.
import { timeChart, PALETTE } from "./chart.js";
import { VTable } from "./table.js";
import { labelsText } from "./pcp.js";

const $ = (id) => document.getElementById(id);
let pcpTable, pcpLatest, mmvMetrics, mmvValues;

export function pcpViews() {
	pcpTable = new VTable($("pcpmetrics"), [
		{ key: "name", label: "name", cls: "name", text: (r) => r.name },
		{ key: "pmid", label: "pmID", text: (r) => r.pmid },
		{ key: "type", label: "type", text: (r) => r.desc.type },
		{ key: "sem", label: "semantics", text: (r) => r.desc.sem + (r.counter ? " (rate)" : "") },
		{ key: "units", label: "units", text: (r) => r.desc.units || "none" },
		{ key: "indom", label: "InDom", text: (r) => r.desc.indom },
		{ key: "nvalues", label: "values", num: true, text: (r) => r.nvalues },
		{ key: "help", label: "help", cls: "cmd", text: (r) => r.help[0] || "" },
	], { sortKey: "order", key: "pmid" });
	$("pcpfilter").addEventListener("input", (e) => pcpTable.setFilter(e.target.value));
	$("pcpmetrics").addEventListener("click", (e) => {
		const row = e.target.closest(".vrow");
		if (row && row.dataset.pmid) pick(row.dataset.pmid);
	});
	pcpLatest = new VTable($("pcplatest"), [
		{ key: "inst", label: "inst", num: true, text: (r) => (r.inst === -1 ? "" : r.inst) },
		{ key: "name", label: "instance", text: (r) => r.name },
		{ key: "text", label: "last value", cls: "cmd", text: (r) => r.text },
		{ key: "rate", label: "last rate", num: true, text: (r) => rateText(r.rate) },
		{ key: "labels", label: "labels", cls: "cmd", text: (r) => r.labels || "" },
	], { sortKey: "inst", key: "inst" });
}

// rateText writes a rate with four significant digits, as pmval does.
const rateText = (v) => (v === null || v === undefined ? "" : String(+v.toPrecision(4)));

let metrics = [], picked = null, drawnPMID = null;

// resetPCP forgets the metric picked: another stream is being opened.
export function resetPCP() { picked = null; drawnPMID = null; }

// showPCP shows a PDU stream (again and again while a live one grows,
// keeping the metric picked) and returns what the status line says of it.
export function showPCP(pcp, api) {
	metrics = pcp.metrics.map((m, i) => ({ ...m, order: i, nvalues: m.latest.length ? m.series.reduce((n, s) => n + s.t.length, 0) || m.latest.length : 0 }));
	api.pcp = {
		pdus: pcp.pdus, types: pcp.types,
		// A live stream's last batch: how many points it brought (the
		// worker sends only those since the batch before).
		points: pcp.points ?? null,
		metrics: metrics.map((m) => ({ pmid: m.pmid, name: m.name, ...m.desc, values: m.nvalues, help: m.help, counter: m.counter,
			rateUnits: m.rateUnits, labels: m.merged || Object.assign({}, ...m.labels.map((j) => JSON.parse(j))),
			// Each instance's labels (its own over the metric's), where the
			// stream has the instance domain's: [{inst, name, labels}].
			instLabels: m.instLabels })),
		// series(pmid): per instance its times (s since the epoch), values
		// and, for a counter, rates (null for none), as the chart draws them.
		series: (pmid) => (metrics.find((m) => m.pmid === pmid) || { series: [] }).series.map(({ inst, name, t, v, rate }) => ({ inst, name, t, v, rate })),
		get picked() { return picked; },
		pick: (pmid) => pick(pmid),
	};
	pcpTable.setRows(metrics);
	const kinds = Object.entries(pcp.types).sort((a, b) => b[1] - a[1]).map(([t, n]) => `${t} ${n}`).join(" · ");
	$("pcpcount").textContent = `(${metrics.length} metrics; ${pcp.pdus} PDUs: ${kinds})`;
	$("summary").textContent = `${pcp.pdus} PDUs — ${kinds}`;
	const first = metrics.find((m) => m.series.length) || metrics[0];
	const keep = picked && metrics.find((m) => m.pmid === picked);
	if (keep || first) pick(keep ? picked : first.pmid); else $("pcpdetail").hidden = true;
	return `${pcp.pdus} PDUs, ${metrics.length} metrics`;
}

// pick shows one metric: descriptor, help, labels, values over time (a
// counter's as rates, as pmval converts them).
function pick(pmid) {
	const m = metrics.find((x) => x.pmid === pmid);
	if (!m) return;
	picked = pmid;
	for (const r of $("pcpmetrics").querySelectorAll(".vbody .vrow")) r.classList.toggle("sel", r.dataset.pmid === pmid);
	$("pcpdetail").hidden = false;
	const what = m.name ? `${m.name} (${pmid}` : `${pmid} (`;
	$("pcptitle").textContent = `${what}${m.name ? ", " : ""}${m.desc.type}, ${m.desc.sem}, ${m.desc.units || "none"})`;
	const info = [];
	if (m.help.length) info.push(m.help.join("\n"));
	// The labels as pminfo -l prints them: the metric's, then each
	// instance's.
	if (m.merged) info.push(["labels " + labelsText(m.merged), ...(m.instLabels || []).map((i) => `inst [${i.inst} or ${JSON.stringify(i.name)}] labels ${labelsText(i.labels)}`)].join("\n"));
	else if (m.labels.length) info.push("labels " + m.labels.join(" "));
	if (m.error !== undefined) info.push(`last fetch: error ${m.error}`);
	$("pcpinfo").textContent = info.join("\n\n");
	const series = m.series.filter((s) => s.t.length);
	if (series.length) {
		// uPlot wants one x array: the union of the instances' times.
		const xs = [...new Set(series.flatMap((s) => s.t))].sort((a, b) => a - b);
		const at = new Map(xs.map((t, i) => [t, i]));
		const ys = series.map((s) => {
			const y = new Array(xs.length).fill(null);
			const src = m.counter ? s.rate : s.v;
			s.t.forEach((t, i) => { y[at.get(t)] = src[i]; });
			return y;
		});
		const data = [xs.map((t) => t - xs[0]), ...ys];
		const el = $("pcpchart");
		const labels = series.map((s, i) => ({ label: s.inst === -1 ? m.name || pmid : `${s.inst} ${s.name}`, stroke: PALETTE[i % PALETTE.length], width: 2 }));
		if (el._chart && drawnPMID === pmid && el._chart.series.length === labels.length + 1) {
			el._chart.setData(data); // a live stream's new values: the same chart, one more point
		} else {
			const title = `${m.name || pmid} over time` + (m.counter ? ` — rate (${m.rateUnits}; a counter)` : "");
			timeChart(el, title, labels, data, "pcp", {
				x: `seconds from ${new Date(xs[0] * 1000).toISOString()}`, y: m.counter ? m.rateUnits : m.desc.units || "value",
				points: xs.length < 120, value: m.counter ? rateText : String,
			});
			drawnPMID = pmid;
		}
	} else {
		$("pcpchart").replaceChildren();
		drawnPMID = null;
	}
	pcpLatest.setRows(m.latest);
}

export function mmvViews() {
	mmvMetrics = new VTable($("mmvmetrics"), [
		{ key: "name", label: "name", cls: "name", text: (r) => r.name },
		{ key: "item", label: "item", num: true, text: (r) => r.item },
		{ key: "type_name", label: "type", text: (r) => r.type_name },
		{ key: "sem", label: "sem", num: true, text: (r) => r.sem },
		{ key: "indom", label: "indom", num: true, text: (r) => (r.indom === 0 || r.indom === 0xffffffff ? "-" : r.indom) },
		{ key: "shorttext", label: "help", cls: "cmd", text: (r) => r.shorttext },
	], { sortKey: "item" });
	mmvValues = new VTable($("mmvvalues"), [
		{ key: "metric", label: "metric", cls: "name", text: (r) => r.metric },
		{ key: "instance", label: "instance", text: (r) => r.instance },
		{ key: "shown", label: "value", cls: "cmd", text: (r) => r.shown },
	], { sortKey: "metric" });
}

// showMMV shows an MMV file and returns what the status line says of it.
export function showMMV(mmv, api) {
	api.mmv = mmv;
	$("mmvinfo").textContent = `(version ${mmv.version}, generation ${mmv.gen}, cluster ${mmv.cluster}, process ${mmv.process}; ` +
		`${mmv.metrics.length} metrics, ${mmv.indoms.length} instance domains, ${mmv.instances.length} instances, ${mmv.values.length} values)`;
	$("summary").textContent = $("mmvinfo").textContent.slice(1, -1);
	mmvMetrics.setRows(mmv.metrics);
	mmvValues.setRows(mmv.values.map((v) => ({
		...v, shown: v.missing ? "(missing)" : v.s !== undefined ? JSON.stringify(v.s) : String(v.i ?? v.u ?? v.f),
	})));
	return `${mmv.metrics.length} MMV metrics, ${mmv.values.length} values`;
}
