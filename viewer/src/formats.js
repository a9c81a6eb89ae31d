// The views of the PCP formats: a recorded PDU stream's metrics with a
// chart of each one's values over time, and an MMV file's metrics and
// values as mmvdump lists them.
import { timeChart, PALETTE } from "./chart.js";
import { VTable } from "./table.js";

const $ = (id) => document.getElementById(id);
let pcpTable, pcpLatest, mmvMetrics, mmvValues;

export function pcpViews() {
	pcpTable = new VTable($("pcpmetrics"), [
		{ key: "pmid", label: "pmID", text: (r) => r.pmid },
		{ key: "type", label: "type", text: (r) => r.desc.type },
		{ key: "sem", label: "semantics", text: (r) => r.desc.sem },
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
	], { sortKey: "inst", key: "inst" });
}

let metrics = [];

// showPCP shows a PDU stream and returns what the status line says of it.
export function showPCP(pcp, api) {
	metrics = pcp.metrics.map((m, i) => ({ ...m, order: i, nvalues: m.latest.length ? m.series.reduce((n, s) => n + s.t.length, 0) || m.latest.length : 0 }));
	api.pcp = { pdus: pcp.pdus, types: pcp.types, metrics: metrics.map((m) => ({ pmid: m.pmid, ...m.desc, values: m.nvalues, help: m.help })) };
	pcpTable.setRows(metrics);
	const kinds = Object.entries(pcp.types).sort((a, b) => b[1] - a[1]).map(([t, n]) => `${t} ${n}`).join(" · ");
	$("pcpcount").textContent = `(${metrics.length} metrics; ${pcp.pdus} PDUs: ${kinds})`;
	$("summary").textContent = `${pcp.pdus} PDUs — ${kinds}`;
	const first = metrics.find((m) => m.series.length) || metrics[0];
	if (first) pick(first.pmid); else $("pcpdetail").hidden = true;
	return `${pcp.pdus} PDUs, ${metrics.length} metrics`;
}

// pick shows one metric: descriptor, help, labels, values over time.
function pick(pmid) {
	const m = metrics.find((x) => x.pmid === pmid);
	if (!m) return;
	for (const r of $("pcpmetrics").querySelectorAll(".vbody .vrow")) r.classList.toggle("sel", r.dataset.pmid === pmid);
	$("pcpdetail").hidden = false;
	$("pcptitle").textContent = `${pmid} (${m.desc.type}, ${m.desc.sem}, ${m.desc.units || "none"})`;
	const info = [];
	if (m.help.length) info.push(m.help.join("\n"));
	if (m.labels.length) info.push("labels " + m.labels.join(" "));
	if (m.error !== undefined) info.push(`last fetch: error ${m.error}`);
	$("pcpinfo").textContent = info.join("\n\n");
	if (m.series.length) {
		// uPlot wants one x array: the union of the instances' times.
		const xs = [...new Set(m.series.flatMap((s) => s.t))].sort((a, b) => a - b);
		const at = new Map(xs.map((t, i) => [t, i]));
		const ys = m.series.map((s) => {
			const y = new Array(xs.length).fill(null);
			s.t.forEach((t, i) => { y[at.get(t)] = s.v[i]; });
			return y;
		});
		const series = m.series.map((s, i) => ({ label: s.inst === -1 ? pmid : `${s.inst} ${s.name}`, stroke: PALETTE[i % PALETTE.length], width: 2 }));
		timeChart($("pcpchart"), `${pmid} over time`, series, [xs.map((t) => t - xs[0]), ...ys], "pcp",
			{ x: `seconds from ${new Date(xs[0] * 1000).toISOString()}`, y: m.desc.units || "value", points: true });
	} else {
		$("pcpchart").replaceChildren();
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
