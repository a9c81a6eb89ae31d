// The viewer's page. It hands a capture (a File, or a URL from
// ?src=URL) to the worker, which decodes it with perfwire's wasm module
// and streams back columnar batches; the page stores them in typed
// arrays and draws. Nothing here decodes the capture's bytes.
import "uplot/dist/uPlot.min.css";
import "./style.css";
import { Samples } from "./series.js";
import { timeChart, PALETTE } from "./chart.js";
import { VTable, treeOrder } from "./table.js";
import { text, bytes } from "./text.js";
import { showPCP, showMMV, pcpViews, mmvViews } from "./formats.js";

const $ = (id) => document.getElementById(id);
const worker = new Worker("worker.js");
const DRAW_MS = 500; // redraw the chart at most this often while loading

let job = 0;
let samples, table, started, lastDraw, chart;
const KINDS = ["NEW", "STP", "ACT", "CHK", "IRQ"];

// The embedding API (viewer/README.md): what a host page or a test reads.
const api = (window.perfwireViewer = {
	state: "idle",
	summary: null, // as `perfwire kpi --summary FILE` prints it
	processes: [], // the process table's rows as shown
	open: (src) => open(src),
	cancel: () => cancel(),
	stats: null, // {bytes, seconds, bytesPerSec, samples}
	range: () => (chart ? [chart.scales.x.min, chart.scales.x.max] : null), // the chart's time range
	// redrawMs zooms and pans the chart n times and returns the median time
	// of one redraw in ms (uPlot draws in the microtask after setScale).
	redrawMs: async (n) => {
		const { min, max } = chart.scales.x, times = [];
		for (let i = 0; i < n; i++) {
			const span = max - min, f = [0.5, 0.25, 0.75, 1][i % 4], off = (i % 3) * span * 0.1;
			const t0 = performance.now();
			chart.setScale("x", { min: min + off, max: min + off + span * f });
			await null;
			times.push(performance.now() - t0);
		}
		chart.setScale("x", { min, max });
		times.sort((a, b) => a - b);
		return times[n >> 1];
	},
});

// showView shows the views of one format: kpi, pdu or mmv.
function showView(v) {
	$("kpiview").hidden = v !== "kpi";
	$("pcpview").hidden = v !== "pdu";
	$("mmvview").hidden = v !== "mmv";
	$("settings").hidden = v !== "kpi"; // top N and page size are dlt-kpi's
}

function setState(s, message) {
	api.state = s;
	document.body.dataset.state = s;
	$("cancel").disabled = s !== "decoding";
	if (message !== undefined) $("status").textContent = message;
	$("status").classList.toggle("error", s === "error");
}

function pageSize() {
	const v = Number($("pagesize").value);
	return v > 0 ? v : 4096;
}

function open(src) {
	job++;
	samples = new Samples();
	table = null;
	started = performance.now();
	lastDraw = 0;
	api.summary = null; api.processes = []; api.stats = null;
	$("progress").value = 0;
	$("summary").textContent = "";
	$("chart").replaceChildren();
	showView("kpi");
	api.pcp = null; api.mmv = null;
	procTable.setRows([]);
	irqTable.setRows([]);
	const name = typeof src === "string" ? src : src.name;
	$("title").textContent = name;
	setState("decoding", "reading " + name + "…");
	worker.postMessage(typeof src === "string" ? { type: "open", job, url: src } : { type: "open", job, file: src });
}

function cancel() {
	if (api.state !== "decoding") return;
	worker.postMessage({ type: "cancel" });
	job++;
	setState("cancelled", "cancelled");
}

worker.onmessage = (e) => {
	const m = e.data;
	if (m.job !== job) return; // a file the user has since replaced
	if (m.type === "error") {
		setState("error", "error: " + m.message);
		return;
	}
	if (m.times) samples.append(m);
	const pct = m.total ? Math.min(100, Math.round(100 * m.fed / m.total)) : null;
	$("progress").value = m.total ? m.fed / m.total : 0;
	if (m.type === "progress") {
		$("status").textContent = `decoding… ${pct === null ? bytes(m.fed) : pct + "%"} · ${bytes(m.bytesPerSec)}/s · ${m.messages} KPI messages`;
		if (m.table) { table = m.table; showTables(); } // a live stream's table so far
		const now = performance.now();
		if (now - lastDraw > DRAW_MS) { lastDraw = now; drawCPU(); }
		return;
	}
	// done
	$("progress").value = 1;
	if (m.view !== "kpi") {
		api.stats = { bytes: m.fed, seconds: (performance.now() - started) / 1000, bytesPerSec: m.bytesPerSec };
		showView(m.view);
		const what = m.view === "mmv" ? showMMV(m.mmv, api) : showPCP(m.pcp, api);
		const stop = m.error ? ` (stopped: ${m.error.message})` : "";
		setState("done", `done: ${what} in ${api.stats.seconds.toFixed(2)} s` + stop);
		return;
	}
	table = m.table;
	api.stats = { bytes: m.fed, seconds: (performance.now() - started) / 1000, bytesPerSec: m.bytesPerSec, samples: samples.length };
	api.summary = table.stats; // the schema `perfwire kpi --summary` prints
	showSummary(api.summary);
	showTables();
	drawCPU();
	api.stats.drawnSeconds = (performance.now() - started) / 1000; // decoded and drawn
	const stop = m.error ? ` (stopped: ${m.error.message})` : "";
	setState("done", `done: ${m.messages} KPI messages in ${api.stats.seconds.toFixed(2)} s` + stop);
};

function showSummary(s) {
	const parts = [`${s.messages} KPI messages`, KINDS.map((k) => `${k} ${s.datasets[k]}`).join(" · ")];
	if (s.truncated) parts.push(`${s.truncated} truncated datasets`);
	if (s.open_groups) parts.push(`${s.open_groups} groups left open`);
	if (s.skipped_bytes) parts.push(`${s.skipped_bytes} damaged bytes skipped`);
	$("summary").textContent = parts.join(" — ");
	$("summary").classList.toggle("warn", !!(s.truncated || s.open_groups || s.skipped_bytes));
}

function drawCPU() {
	if (!samples || samples.length === 0) return;
	const { data, top } = samples.cpuSeries(Number($("topn").value) || 8);
	const names = new Map((table ? table.processes : []).map((p) => [p.pid, text(p.cmd)]));
	const series = [
		{ label: "all processes", stroke: "#9aa3ad", dash: [5, 4] },
		{ label: "others", stroke: "#c0c6cc" },
		...top.map((pid, i) => ({ label: `${pid} ${(names.get(pid) || "").slice(0, 32)}`, stroke: PALETTE[i % PALETTE.length], width: 2 })),
	];
	chart = timeChart($("chart"), "CPU per process (‰ of the machine; top by peak, the rest as others)", series, data, "kpi");
}

const procColumns = [
	{ key: "pid", label: "PID", num: true, text: (r) => r.pid },
	{ key: "ppid", label: "PPID", num: true, text: (r) => (r.ppidKnown ? r.ppid : "?") },
	{ key: "cpu", label: "CPU‰", num: true, text: (r) => (r.hasAct ? r.cpu : "-") },
	{ key: "rssKiB", label: "RSS KiB", num: true, text: (r) => (r.hasAct ? r.rssKiB : "-") },
	{ key: "ctx", label: "CTX/int", num: true, text: (r) => (r.hasDelta ? r.ctx : "-") },
	{ key: "io", label: "IO/int", num: true, text: (r) => (r.hasDelta ? r.io : "-") },
	{ key: "first", label: "first seen s", num: true, text: (r) => r.first.toFixed(1) },
	{ key: "life", label: "lifetime s", num: true, text: (r) => r.life.toFixed(1) },
	{ key: "flags", label: "Flags", text: (r) => r.flags },
	{ key: "cmd", label: "Command", cls: "cmd", text: (r) => r.cmd },
];
const procTable = new VTable($("procs"), procColumns, { sortKey: "pid" });
const irqTable = new VTable($("irqs"), [
	{ key: "name", label: "IRQ", cls: "name", text: (r) => r.name },
	{ key: "cpu", label: "CPU", num: true, text: (r) => r.cpu },
	{ key: "count", label: "Count", num: true, text: (r) => r.count },
	{ key: "delta", label: "Δ", num: true, text: (r) => (r.has_delta ? r.delta : "-") },
	{ key: "per_second", label: "per s", num: true, text: (r) => (r.has_delta ? r.per_second.toFixed(1) : "-") },
], { sortKey: "per_second", desc: true });

function showTables() {
	const ps = pageSize();
	const rows = table.processes.map((p) => ({
		pid: p.pid, ppid: p.ppid, ppidKnown: p.ppid_known, hasAct: p.has_act, hasDelta: p.has_act && p.has_delta,
		cpu: Number(p.cpu), rssKiB: Math.floor(Number(p.rss) * ps / 1024), ctx: Number(p.ctx_delta), io: Number(p.io_delta),
		first: p.first_seen / 10000, life: (p.last_seen - p.first_seen) / 10000,
		flags: (p.stat_shifted ? "S" : "") + (p.partial ? "P" : "") + (p.cmd_kind === "null" ? "N" : "") || "-",
		cmd: text(p.cmd),
	}));
	procTable.setRows(rows);
	api.processes = rows.map((r) => Object.fromEntries(procColumns.map((c) => [c.key, String(c.text(r))])));
	const st = table.stats;
	$("proccount").textContent = `(${rows.length} processes; ${st.inferred_stops} inferred stops, ${st.replaced} pid replacements, ${st.suspect_irq} suspect IRQ groups)`;
	irqTable.setRows(table.irqs);
}

pcpViews();
mmvViews();
$("filter").addEventListener("input", (e) => procTable.setFilter(e.target.value));
$("tree").addEventListener("change", (e) => procTable.setTree(e.target.checked ? treeOrder : null));
$("pagesize").addEventListener("change", () => table && showTables());
$("topn").addEventListener("change", drawCPU);
$("cancel").addEventListener("click", cancel);
$("file").addEventListener("change", (e) => {
	const f = e.target.files[0];
	e.target.value = ""; // so that choosing the same file again reopens it
	if (f) open(f);
});
const drop = $("drop");
for (const ev of ["dragenter", "dragover"]) drop.addEventListener(ev, (e) => { e.preventDefault(); drop.classList.add("over"); });
for (const ev of ["dragleave", "drop"]) drop.addEventListener(ev, () => drop.classList.remove("over"));
document.body.addEventListener("dragover", (e) => e.preventDefault());
document.body.addEventListener("drop", (e) => { e.preventDefault(); const f = e.dataTransfer.files[0]; if (f) open(f); });
window.addEventListener("resize", () => chart && chart.setSize({ width: $("chart").clientWidth, height: 280 }));

// Under perfwire serve --dlt, /live says which daemon can be followed.
fetch("live").then((r) => (r.ok ? r.json() : null)).then((live) => {
	if (!live || !live.dlt) return;
	const a = $("live");
	a.href = "?src=live/dlt";
	a.textContent = "live: dlt-daemon at " + live.dlt;
	a.hidden = false;
}).catch(() => {});

const src = new URLSearchParams(location.search).get("src");
if (src) open(src);
else setState("idle", "no capture loaded");
