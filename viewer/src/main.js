// The viewer's page. It hands a capture (a File, or a URL from
// ?src=URL) to the worker, which decodes it with perfwire's wasm module
// and streams back columnar batches; the page stores them in typed
// arrays and draws. Nothing here decodes the capture's bytes.
import "uplot/dist/uPlot.min.css";
import "./style.css";
import { Samples, Ended } from "./series.js";
import { timeChart, PALETTE, XGroup, spanOf } from "./chart.js";
import { VTable, treeOrder } from "./table.js";
import { text, bytes, secs } from "./text.js";
import { MessageLog } from "./log.js";
import { showPCP, showMMV, pcpViews, mmvViews, resetPCP } from "./formats.js";
import { showArchive, archiveViews } from "./archiveview.js";
import { PCPLive } from "./pcp.js";

const $ = (id) => document.getElementById(id);
// The worker index.html started, with the module's bytes it fetched;
// else one of our own, which fetches the module itself.
const worker = self.perfwireWorker || new Worker("worker.js");
if (!self.perfwireWorker) worker.postMessage({ type: "module", bytes: null });
const DRAW_MS = 500; // redraw the chart at most this often while loading

let job = 0;
let samples, table, started, lastDraw, lastFed, chart;
let ended = new Ended(); // rows of the processes that left the table, as steps report them
let insts = new Map(); // pid → its processes, by start: [{id, pid, start, tmsp, cmd, reused}]
let procs = []; // the same processes by their id, the number the charts tell them apart by
let drawn = {}; // what each chart shows, for the embedding API
let source = null, live = false; // what is open: a File or a URL, and whether it never ends
let logState = "none"; // the message log: none, loading, done or error
let liveWindow = 600; // seconds of a live stream's values kept before its newest
let pcpLive = null; // a live PDU stream's points, gathered batch by batch
// pageMs is the main thread's time in the load's own work (the worker's
// messages handled, the tables and charts drawn), for stats.parts.
let pageMs = 0;
let doneAt = 0, donePageMs = 0; // when the page got a KPI load's done message, and pageMs then
const xgroup = new XGroup(); // the charts share one time axis
const KINDS = ["NEW", "STP", "ACT", "CHK", "IRQ"];

// The per-process charts besides CPU: the metric (series.js METRICS),
// its element, title and unit.
const CHARTS = [
	{ metric: "cpu", el: "chart", title: "CPU per process (‰ of the machine; top by peak, the rest as others)", y: "‰" },
	{ metric: "rss", el: "rsschart", title: "RSS per process (KiB at the page size; top by peak, the rest as others)", y: "KiB" },
	{ metric: "ctx", el: "ctxchart", title: "Context switches per process in each ACT interval (top by peak, the rest as others)", y: "switches" },
	{ metric: "io", el: "iochart", title: "I/O bytes per process in each ACT interval (top by peak, the rest as others)", y: "bytes" },
];

// The embedding API (viewer/README.md): what a host page or a test reads.
const api = (window.perfwireViewer = {
	state: "idle",
	ready: !!self.perfwireReady, // the worker's module is started and warmed up
	summary: null, // as `perfwire kpi --summary FILE` prints it
	// processes: the process table's rows as shown (a getter below)
	open: (src) => open(src), // a File, an array of Files (a PCP archive's), or a URL
	cancel: () => cancel(),
	// stats: {bytes, seconds, bytesPerSec, samples, drawnSeconds, parts};
	// parts (a KPI load's) says where the time went, in seconds: module
	// (waiting for the module to start), wasm (in its calls), read
	// (reading their results into columns and posting them), input
	// (waiting for the file's bytes), page (the main thread's own work);
	// and outside the worker's job: tail (from its done message handled
	// to the view drawn; tailPage, the page's script in it) and messages
	// (the rest: from open to the worker starting the job, the done
	// message on its way).
	stats: null,
	// firstScreen: the first CPU chart and process table drawn while
	// decoding, {seconds (since open), fed (bytes by then), total, points,
	// rows}; null until then, and for a file too quick to have one.
	firstScreen: null,
	range: () => (chart ? [chart.scales.x.min, chart.scales.x.max] : null), // the chart's time range
	// charts returns what each chart draws: per ACT chart (cpu, rss, ctx,
	// io) x, total, others and per top process {pid, start, label, y}; for
	// irq x and per top interrupt {key, y}. Values as shown, null for none.
	charts: () => { drawPending(); return drawn; },
	// drawCharts draws the charts left for when they are scrolled to, and
	// resolves once they are painted (for a screenshot of the whole page).
	drawCharts: async () => { drawPending(); await tick(); },
	// log is the message log: its state ("none" until asked for with
	// openLog(), "loading", "done", "error"), how many messages it has and
	// shows, and rows(from, to), the shown rows' cells (#, time s, kind,
	// sync, datasets, content).
	log: {
		get state() { return logState; },
		get messages() { return log.length; },
		get shown() { return log.index.length; },
		get dropped() { return log.dropped; }, // the oldest messages, beyond the limit
		get limit() { return log.limit; },
		setLimit: (n) => setLogLimit(n),
		rows: (from = 0, to = Infinity) => Array.from(log.index.subarray(from, Math.min(to, log.index.length)), (i) => log.cells(i)),
	},
	openLog: () => openLog(),
	// window is how many seconds of a live stream's values the charts keep
	// before the newest (the page's "live window", in minutes).
	get window() { return liveWindow; },
	setWindow: (seconds) => setWindow(seconds),
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

// The process table's rows as shown, cell by cell, made when asked for.
let shownRows = [], shownCells = null;
Object.defineProperty(api, "processes", {
	get() {
		if (!shownCells) shownCells = shownRows.map((r) => Object.fromEntries(procColumns.map((c) => [c.key, String(c.text(r))])));
		return shownCells;
	},
});

// showView shows the views of one format: kpi, pdu or mmv.
function showView(v) {
	$("kpiview").hidden = v !== "kpi";
	$("pcpview").hidden = v !== "pdu";
	$("mmvview").hidden = v !== "mmv";
	$("archview").hidden = v !== "archive";
	$("settings").hidden = v !== "kpi"; // top N and page size are dlt-kpi's
}

function setState(s, message) {
	api.state = s;
	document.body.dataset.state = s;
	$("cancel").disabled = s !== "decoding" && s !== "reconnecting";
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
	ended = new Ended(); endedRows = []; insts = new Map(); procs = []; drawn = {};
	for (const el of [...pending.keys()]) unpend(el);
	source = src; live = false; logState = "none";
	log.reset(); logNote = "";
	$("logload").disabled = true;
	$("logcount").textContent = "";
	started = performance.now();
	lastDraw = 0; lastFed = 0; pageMs = 0; identsOf = null;
	api.summary = null; api.firstScreen = null; shownRows = []; shownCells = null; api.stats = null;
	$("progress").value = 0;
	$("summary").textContent = "";
	for (const c of [...CHARTS, { el: "irqchart" }]) {
		const el = $(c.el);
		if (el._chart) { xgroup.charts.delete(el._chart); el._chart.destroy(); el._chart = null; }
		el.replaceChildren();
	}
	chart = null;
	showView("kpi");
	api.pcp = null; api.mmv = null; api.archive = null;
	resetPCP();
	pcpLive = null;
	procTable.setRows([]);
	irqTable.setRows([]);
	// Several files are a PCP archive's (BASE.meta, BASE.index, BASE.0 …).
	const files = Array.isArray(src) ? (src.length === 1 ? null : src) : null;
	if (Array.isArray(src) && src.length === 1) source = src = src[0];
	const name = typeof src === "string" ? src : files ? files.map((f) => f.name).join(", ") : src.name;
	$("title").textContent = name;
	setState("decoding", "reading " + name + "…");
	worker.postMessage(typeof src === "string" ? { type: "open", job, url: src } : files ? { type: "open", job, files } : { type: "open", job, file: src });
}

function cancel() {
	if (api.state !== "decoding" && api.state !== "reconnecting") return;
	worker.postMessage({ type: "cancel" });
	job++;
	setState("cancelled", "cancelled");
}

// A failure the page or the worker did not foresee (an exception while a
// result is shown, the worker stopped, a message that cannot be read)
// ends the load as an error that says so, rather than leaving the page
// decoding for ever.
worker.onmessage = (e) => {
	const t = performance.now();
	try {
		received(e.data);
	} catch (err) {
		failed("could not show the result: " + (err && err.message || err));
		throw err;
	} finally {
		pageMs += performance.now() - t;
	}
};
worker.onerror = (e) => failed("the decoder stopped: " + (e.message || "an error in its worker"));
worker.onmessageerror = () => failed("the decoder's message could not be read");
function failed(why) {
	if (api.state === "decoding" || api.state === "reconnecting") setState("error", "error: " + why);
}

function received(m) {
	if (m.type === "ready") { api.ready = true; return; }
	if (m.job !== job) return; // a file the user has since replaced
	if (m.type === "log") { showLog(m); return; }
	if (m.type === "reconnecting") {
		// A live relay went away (perfwire serve stopped): the worker
		// fetches it again every second until it answers or is cancelled.
		setState("reconnecting", `reconnecting… (attempt ${m.attempt}: ${m.message})`);
		return;
	}
	if (m.type === "reconnected") { setState("decoding", `reconnected after ${m.attempt} attempts; decoding…`); return; }
	if (m.type === "error") {
		setState("error", "error: " + m.message);
		return;
	}
	if (m.times) {
		samples.append(m);
		samples.appendIRQ(m);
		ended.append(m);
		addEndedRows();
		if (!m.total) keepWindow(); // a live stream
	}
	const pct = m.total ? Math.min(100, Math.round(100 * m.fed / m.total)) : null;
	$("progress").value = m.total ? m.fed / m.total : 0;
	if (m.type === "progress") {
		$("status").textContent = `decoding… ${pct === null ? bytes(m.fed) : pct + "%"} · ${bytes(m.bytesPerSec)}/s · ${m.messages} ${m.unit || "KPI messages"}`;
		if (m.table) table = m.table; // the table so far: shown in a task of its own, below
		if (m.pcpDelta) {
			// A live PDU stream's metrics and the points since the last.
			if (!pcpLive) pcpLive = new PCPLive(() => liveWindow);
			showView("pdu");
			showPCP(pcpLive.add(m.pcpDelta), api);
			return;
		}
		const now = performance.now();
		// While loading only the CPU chart follows: the others come at the
		// end, so the page leaves the worker the machine's cores.
		// The chart is drawn in a task of its own, not in this one, which
		// has had the batch cloned into the page: the two at once were
		// the longest task of a load. A live stream's chart follows every
		// DRAW_MS; a file's with each process table the worker sends (the
		// first batch's, then every two seconds while the file arrives
		// slowly), so that the first screen is there long before the end,
		// and rarely: the page's
		// work on the other core slows the worker's decode (without
		// redraws a 100 MB capture loaded 0.35 s sooner than with one
		// each time its groups had doubled, which was 0.7 s sooner than
		// with every chart so).
		// The table too is shown in a task of its own, before the chart.
		lastFed = m.fed;
		const mine = job;
		if (m.table) setTimeout(() => { if (mine === job && table === m.table) timed(showTables); }, 0);
		if (!drawing && (m.total ? !!m.table : now - lastDraw > DRAW_MS)) {
			lastDraw = now;
			setTimeout(() => { if (mine === job && !drawing) drawCharts(mine, "cpu").then(() => firstScreen(mine, m.total)); }, 0);
		}
		return;
	}
	// done
	$("progress").value = 1;
	if (m.view !== "kpi") {
		api.stats = { bytes: m.fed, seconds: (performance.now() - started) / 1000, bytesPerSec: m.bytesPerSec };
		showView(m.view);
		const what = m.view === "mmv" ? showMMV(m.mmv, api) : m.view === "archive" ? showArchive(m.archive, api) : showPCP(m.pcp, api);
		const stop = m.error ? ` (stopped: ${m.error.message})` : "";
		setState("done", `done: ${what} in ${api.stats.seconds.toFixed(2)} s` + stop);
		return;
	}
	doneAt = performance.now();
	donePageMs = pageMs;
	table = m.table;
	live = !m.total;
	$("logload").disabled = live || logState !== "none"; // a serial capture's log came with it
	api.stats = { bytes: m.fed, seconds: (performance.now() - started) / 1000, bytesPerSec: m.bytesPerSec, samples: samples.length,
		parts: Object.fromEntries(Object.entries(m.parts).map(([k, ms]) => [k, ms / 1000])), warm: m.warm };
	api.summary = table.stats; // the schema `perfwire kpi --summary` prints
	showSummary(api.summary);
	finish(m, job);
}

// keepWindow drops a live stream's values older than the window before
// its newest, and the processes that ended before it, so that a long
// session's memory stays flat.
function keepWindow() {
	const cut = samples.newest - liveWindow;
	if (!(cut > -Infinity)) return;
	samples.keepSince(cut);
	// endedRows stays row for row with ended: both keep the processes
	// that ended since the cut, in order.
	ended.keepSince(cut * 10000);
	endedRows = endedRows.filter((r) => r.end >= cut * 10000);
}

// setWindow sets how many seconds of a live stream's values are kept
// (from the next batch on), remembered for the next visit.
function setWindow(seconds) {
	if (!(seconds > 0)) return;
	liveWindow = seconds;
	$("window").value = +(seconds / 60).toFixed(4);
	worker.postMessage({ type: "window", seconds });
	try { localStorage.setItem("perfwire.window", String(seconds)); } catch { /* not kept */ }
}

// finish draws a capture's tables and charts, then says it is done. The
// done message (the whole process table, cloned into the page) is a task
// of its own; the steps after it (the table's rows built, named and
// shown, each chart's series and drawing) run back to back while they
// fit in one slice (pace), so that a small capture's end is one or two
// tasks and frames, and a large one's a task per step: building a 100 MB
// capture's 60,000 rows and showing them took the page 200 ms or more
// at once.
async function finish(m, mine) {
	await pace(true);
	if (mine !== job) return;
	const rows = timed(tableRows);
	await pace();
	if (mine !== job) return;
	timed(() => nameRows(rows));
	await pace();
	if (mine !== job) return;
	timed(() => listRows(rows));
	await pace();
	if (mine !== job) return;
	await drawCharts(mine);
	if (mine !== job) return;
	const drawnAt = performance.now();
	api.stats.drawnSeconds = (drawnAt - started) / 1000; // decoded and drawn
	const p = api.stats.parts;
	p.page = pageMs / 1000;
	// The load's time outside the worker's job (its clock and the page's
	// have different origins, so the page tells them apart): the tail,
	// from the done message handled to the view drawn, frames included,
	// and the messages, the rest: the open message waiting while the
	// worker finishes a task of its own, the done message on its way.
	p.tail = (drawnAt - doneAt) / 1000;
	p.tailPage = (pageMs - donePageMs) / 1000; // the page's script in the tail
	p.messages = api.stats.drawnSeconds - m.seconds - p.tail;
	const stop = m.error ? ` (stopped: ${m.error.message})` : "";
	setState("done", `done: ${m.messages} KPI messages in ${api.stats.seconds.toFixed(2)} s` + stop);
}

const tick = () => new Promise((r) => setTimeout(r, 0));

// pace ends the task once SLICE_MS of the page's work have run in it
// (always if fresh: a new slice starts), else returns at once. Each
// yield to the page is a frame the browser may lay out and paint the
// whole page in, 10-40 ms each at the end of a 6.4 MB load, and a
// setTimeout's delay: the end of a load yielded after every step, eight
// times, and took 0.25 s for 0.09 s of work. The yield is
// scheduler.yield() where the browser has it: its continuation runs
// before other tasks, not after the timers' 4 ms clamp.
const SLICE_MS = 40;
let sliceFrom = 0;
async function pace(fresh = false) {
	if (!fresh && performance.now() - sliceFrom < SLICE_MS) return;
	await (self.scheduler && self.scheduler.yield ? self.scheduler.yield() : tick());
	sliceFrom = performance.now();
}

// timed returns f(), its time added to the load's pageMs.
function timed(f) {
	const t = performance.now();
	try { return f(); } finally { pageMs += performance.now() - t; }
}

// firstScreen notes when the first chart of a load was drawn, if it was
// drawn while the file still decoded.
function firstScreen(mine, total) {
	if (mine !== job || api.firstScreen || api.state !== "decoding" || !drawn.cpu) return;
	api.firstScreen = { seconds: (performance.now() - started) / 1000, fed: lastFed, total,
		points: drawn.cpu.x.length, rows: shownRows.length };
}

function showSummary(s) {
	const parts = [`${s.messages} KPI messages`, KINDS.map((k) => `${k} ${s.datasets[k]}`).join(" · ")];
	if (s.truncated) parts.push(`${s.truncated} truncated datasets`);
	if (s.open_groups) parts.push(`${s.open_groups} groups left open`);
	if (s.skipped_bytes) parts.push(`${s.skipped_bytes} damaged bytes skipped`);
	$("summary").textContent = parts.join(" — ");
	$("summary").classList.toggle("warn", !!(s.truncated || s.open_groups || s.skipped_bytes));
}

// ident gives the id of the process a sample of pid at time t (s) belongs
// to: the last one with that pid that started by then, so that a reused
// pid is two processes, each its own line. A pid the table lacks is a
// process of its own, named by its pid alone.
function ident(pid, t) {
	let list = insts.get(pid);
	if (!list) {
		list = [{ id: procs.length, pid, start: null, bare: true }];
		procs.push(list[0]);
		insts.set(pid, list);
	}
	let lo = 0, hi = list.length - 1; // the last start ≤ t, else the first
	while (lo < hi) {
		const mid = (lo + hi + 1) >> 1;
		if (list[mid].start <= t) lo = mid; else hi = mid - 1;
	}
	return list[lo].id;
}

// drawCharts draws the per-process charts and the interrupts' rates, all
// on one time axis, one chart per task (only the chart of metric if
// given); it stops when mine is no longer the open capture.
let drawing = false;
async function drawCharts(mine = job, metric = null) {
	if (!samples) return;
	if (drawing) {
		// A chart drawn while loading is skipped while another is drawn;
		// all of them wait for it.
		if (metric) return;
		while (drawing) await tick();
		if (mine !== job) return;
	}
	drawing = true;
	try { await drawAll(mine, metric); } finally { drawing = false; }
}

// A chart below the fold is drawn when it comes near the viewport (or
// when the embedding API asks for the charts), as Perfetto draws only the
// tracks in view: at the end of a 100 MB load the I/O and interrupt
// charts, below the fold on a 1000-pixel window, took 0.15-0.2 s more.
const NEAR = 100; // px below the viewport that count as near
const pending = new Map(); // a chart's element → the function that draws it
const nearView = new IntersectionObserver((entries) => {
	for (const e of entries) if (e.isIntersecting) drawPending(e.target);
}, { rootMargin: `0px 0px ${NEAR}px 0px` });

// drawPending draws the pending chart of el, or every pending one.
function drawPending(el) {
	for (const [at, draw] of [...pending]) {
		if (el && at !== el) continue;
		unpend(at);
		draw();
	}
}

// unpend forgets el's pending chart, if any.
function unpend(el) {
	pending.delete(el);
	nearView.unobserve(el);
	el.classList.remove("pending");
}

// later leaves el's chart to draw when el comes near the viewport, with
// the time range the charts show then.
function later(el, draw) {
	pending.set(el, () => draw(chart && chart.scales.x.min != null ? [chart.scales.x.min, chart.scales.x.max] : null));
	// An empty chart keeps a chart's room, so that the page does not
	// jump when it is drawn, and it can be seen coming into view.
	el.classList.add("pending");
	nearView.observe(el);
}

// place draws el's chart over range r now, forgetting any pending draw.
function place(el, draw, r) {
	unpend(el);
	draw(r);
}

// below says whether el is further below the viewport than NEAR.
const below = (el) => el.getBoundingClientRect().top > innerHeight + NEAR;

async function drawAll(mine, metric) {
	const n = Number($("topn").value) || 8, ps = pageSize(), range = spanOf(...samples.span);
	// While the file decodes, each step is a task of its own (the page
	// leaves the worker the machine's cores between them); at the end
	// they share slices.
	const step = () => pace(!!metric);
	if (samples.length) {
		// Every sample's process, numbered once for all the charts, in a
		// step of its own: on a large capture it is a long task's worth.
		await step();
		if (mine !== job) return;
		timed(idents);
		for (const c of CHARTS) {
			if (metric && c.metric !== metric) continue;
			// A chart's series and its drawing are a step each; the
			// series are of the samples and processes of their own step.
			const series = () => {
				const ids = idents();
				return { ids, ...samples.series(c.metric, n, ps, ids, procs.length) };
			};
			const el = $(c.el), draw = (r, d = series()) => drawProcessChart(c, d, r);
			if (!metric && await isBelow(mine, el)) { later(el, draw); continue; }
			if (mine !== job) return;
			await step();
			if (mine !== job) return;
			const d = timed(series);
			await step();
			if (mine !== job) return;
			timed(() => place(el, (r) => draw(r, d), range));
		}
	}
	if (samples.irqRows && !metric) {
		const el = $("irqchart"), draw = (r) => drawIRQChart(n, r);
		if (await isBelow(mine, el)) later(el, draw);
		else if (mine === job) {
			await step();
			if (mine !== job) return;
			timed(() => place(el, draw, range));
		}
	}
	xgroup.span();
}

// isBelow says, in a step of its own, whether el is below the fold: where
// it is comes from a layout of the whole page, the chart drawn just
// before included.
async function isBelow(mine, el) {
	await pace();
	return mine === job && timed(() => below(el));
}

// idents numbers each sample's process (Samples.idents) by the table's
// processes, kept until the samples or the processes change; undefined
// until the table is known: every process is then its pid.
let identsOf = null;
function idents() {
	if (!insts.size) return undefined;
	if (!identsOf || identsOf.samples !== samples || identsOf.changes !== samples.changes || identsOf.procs !== procs) {
		identsOf = { samples, changes: samples.changes, procs, ids: samples.idents(ident) };
	}
	return identsOf.ids;
}

// drawProcessChart draws chart c (one of CHARTS) over x range r from
// its series (Samples.series, with the idents ids they were made with).
function drawProcessChart(c, { data, top, ids }, r) {
	const who = top.map((id) => {
		const p = ids ? procs[id] : null; // a process of insts, or a pid
		if (!p || p.bare) return { pid: p ? p.pid : id, start: null, label: String(p ? p.pid : id) };
		return { pid: p.pid, start: p.start, label: `${p.pid} ${p.cmd}` + (p.reused ? ` (from ${secs(p.tmsp)} s)` : "") };
	});
	const series = [
		{ label: "all processes", stroke: "#9aa3ad", dash: [5, 4] },
		{ label: "others", stroke: "#c0c6cc" },
		...who.map((p, i) => ({ label: p.label.slice(0, 40), stroke: PALETTE[i % PALETTE.length], width: 2 })),
	];
	const u = timeChart($(c.el), c.title, series, data, "kpi", { y: c.y, group: xgroup, range: r, height: c.metric === "cpu" ? 280 : 220 });
	if (c.metric === "cpu") chart = u;
	drawn[c.metric] = {
		get x() { return Array.from(data[0]); }, get total() { return Array.from(data[1]); }, get others() { return Array.from(data[2]); },
		series: who.map((p, i) => ({ pid: p.pid, start: p.start, label: p.label, y: data[3 + i] })),
	};
}

// drawIRQChart draws the interrupts' rates over x range r.
function drawIRQChart(n, r) {
	const { data, top } = samples.irqSeries(n);
	const series = top.map((k, i) => ({ label: k, stroke: PALETTE[i % PALETTE.length], width: 2 }));
	timeChart($("irqchart"), "Interrupts per second (an interrupt on one CPU; top by peak)", series, data, "kpi",
		{ y: "per s", group: xgroup, range: r, height: 220, points: data[0].length < 60 });
	drawn.irq = { x: Array.from(data[0]), series: top.map((key, i) => ({ key, y: data[1 + i] })) };
}

const procColumns = [
	{ key: "pid", label: "PID", num: true, text: (r) => r.pid },
	{ key: "ppid", label: "PPID", num: true, text: (r) => (r.ppidKnown ? r.ppid : "?") },
	{ key: "cpu", label: "CPU‰", num: true, text: (r) => (r.hasAct ? r.cpu : "-") },
	{ key: "rssKiB", label: "RSS KiB", num: true, text: (r) => (r.hasAct ? r.rssKiB : "-") },
	{ key: "ctx", label: "CTX/int", num: true, text: (r) => (r.hasDelta ? r.ctx : "-") },
	{ key: "io", label: "IO/int", num: true, text: (r) => (r.hasDelta ? r.io : "-") },
	{ key: "start", label: "start s", num: true, cls: "t", text: (r) => secs(r.start) },
	{ key: "end", label: "end s", num: true, cls: "t", text: (r) => (r.end === Infinity ? "-" : secs(r.end)) },
	{ key: "life", label: "lifetime s", num: true, cls: "t", text: (r) => secs(r.life) },
	{ key: "by", label: "ended", text: (r) => r.by },
	{ key: "flags", label: "Flags", text: (r) => r.flags },
	{ key: "cmd", label: "Command", cls: "cmd", text: (r) => r.cmd },
];
const procTable = new VTable($("procs"), procColumns, { sortKey: "pid", key: "pid" });
const irqTable = new VTable($("irqs"), [
	{ key: "name", label: "IRQ", cls: "name", text: (r) => r.name },
	{ key: "cpu", label: "CPU", num: true, text: (r) => r.cpu },
	{ key: "count", label: "Count", num: true, text: (r) => r.count },
	{ key: "delta", label: "Δ", num: true, text: (r) => (r.has_delta ? r.delta : "-") },
	{ key: "per_second", label: "per s", num: true, text: (r) => (r.has_delta ? r.per_second.toFixed(1) : "-") },
], { sortKey: "per_second", desc: true });

// row is the process table's row of a process, live or ended: the
// numbers of an ended one are those perfwire kpi --all prints (its last
// CPU, RSS and deltas are not shown: it no longer runs).
function row(p, ps) {
	const gone = p.end_by !== "";
	const last = gone ? p.end : p.last_seen;
	return {
		pid: p.pid, ppid: p.ppid, ppidKnown: p.ppid_known,
		hasAct: !gone && p.has_act, hasDelta: !gone && p.has_act && p.has_delta,
		// An ended process's values sort below every live one's.
		cpu: gone ? -1 : Number(p.cpu), rssKiB: gone ? -1 : Math.trunc(Number(p.rss) * ps / 1024),
		ctx: gone ? -1 : Number(p.ctx_delta), io: gone ? -1 : Number(p.io_delta),
		start: p.first_seen, end: gone ? p.end : Infinity, life: last - p.first_seen, by: gone ? p.end_by : "-",
		flags: (p.stat_shifted ? "S" : "") + (p.partial ? "P" : "") + (p.cmd_kind === "null" ? "N" : "") || "-",
		cmd: text(p.cmd),
	};
}

function showTables() { showRows(tableRows()); }

// endedRows are the table's rows of the ended processes, made as their
// batches arrive, while the page waits for the worker: at the end of a
// 100 MB capture's load, 64,000 of them made at once took 100 ms or more.
// Their cells do not depend on the page size (an ended process shows no
// RSS).
let endedRows = [];
function addEndedRows() {
	for (let i = endedRows.length; i < ended.length; i++) endedRows.push(row(ended.row(i), 0));
}

// tableRows is the process table's rows, live and ended processes, by
// pid, then start, as perfwire kpi --all lists them.
function tableRows() {
	const ps = pageSize();
	addEndedRows();
	const rows = endedRows.concat(table.processes.map((p) => row(p, ps)));
	return rows.sort((a, b) => a.pid - b.pid || a.start - b.start);
}

// showRows shows the rows of tableRows and names the processes the
// charts draw after them.
function showRows(rows) {
	nameRows(rows);
	listRows(rows);
}

// nameRows names the processes the charts draw after the rows of
// tableRows.
function nameRows(rows) {
	insts = new Map(); procs = new Array(rows.length);
	for (let i = 0; i < rows.length; i++) {
		const r = rows[i], p = { id: i, pid: r.pid, start: r.start / 10000, tmsp: r.start, cmd: r.cmd };
		procs[i] = p;
		const list = insts.get(r.pid);
		if (list) list.push(p); else insts.set(r.pid, [p]);
	}
	for (const list of insts.values()) if (list.length > 1) for (const p of list) p.reused = true;
}

// listRows shows the rows of tableRows in the process table.
function listRows(rows) {
	procTable.setRows(rows);
	shownRows = rows; shownCells = null;
	const st = table.stats;
	$("proccount").textContent = `(${rows.length} processes, ${ended.length} of them ended; ${st.inferred_stops} inferred stops, ` +
		`${st.replaced} pid replacements, ${st.suspect_irq} suspect IRQ groups)`;
	irqTable.setRows(table.irqs);
}

// openLog asks the worker to read the capture again for its messages.
function openLog() {
	if (logState === "loading" || logState === "done" || !source || live) return;
	logState = "loading";
	$("logload").disabled = true;
	$("logcount").textContent = "(reading…)";
	worker.postMessage(typeof source === "string" ? { type: "log", job, url: source } : { type: "log", job, file: source });
}

// showLog takes a batch of the message log: read again on demand, or
// kept as a live stream or a serial capture is decoded.
let logNote = "";
function showLog(m) {
	if (logState === "none") logState = "loading";
	if (m.tmsp) log.append(m);
	if (m.done) logState = m.error && !log.length ? "error" : "done";
	const pct = m.total ? ` — reading ${Math.round(100 * m.fed / m.total)}%` : "";
	logNote = m.done ? "" : m.total ? pct : " — live";
	if (m.error) logNote += ` — ${m.error.message}`;
	logCount();
}

// logCount says how many messages the log shows, has, and dropped.
function logCount() {
	const dropped = log.dropped ? `; ${log.dropped} older messages dropped (keeping the last ${log.limit})` : "";
	$("logcount").textContent = `(${log.index.length} of ${log.length} messages shown${dropped}${logNote})`;
	$("logcount").classList.toggle("warn", log.dropped > 0);
}

function logFilter() {
	const num = (id) => ($(id).value === "" ? null : Number($(id).value));
	log.setFilter({ kind: Number($("logkind").value), pid: num("logpid"), text: $("logtext").value.toLowerCase(), from: num("logfrom"), to: num("logto") });
	logCount();
}

function setLogLimit(n) {
	if (!(n >= 1)) return;
	$("logmax").value = n;
	log.setLimit(Math.floor(n));
	logCount();
}

const log = new MessageLog($("log"), Number($("logmax").value));
$("logmax").addEventListener("change", () => setLogLimit(Number($("logmax").value)));
for (const id of ["logkind", "logpid", "logtext", "logfrom", "logto"]) $(id).addEventListener("input", logFilter);
$("logload").addEventListener("click", openLog);
$("logrange").addEventListener("click", () => {
	const r = api.range();
	if (!r) return;
	$("logfrom").value = r[0].toFixed(4);
	$("logto").value = r[1].toFixed(4);
	logFilter();
});

pcpViews();
mmvViews();
archiveViews();
$("filter").addEventListener("input", (e) => procTable.setFilter(e.target.value));
$("tree").addEventListener("change", (e) => procTable.setTree(e.target.checked ? treeOrder : null));
$("pagesize").addEventListener("change", () => { if (table) { showTables(); drawCharts(); } });
$("topn").addEventListener("change", () => drawCharts());
$("cancel").addEventListener("click", cancel);
$("window").addEventListener("change", () => setWindow(Number($("window").value) * 60));
setWindow(Number((() => { try { return localStorage.getItem("perfwire.window"); } catch { return null; } })()) || Number($("window").value) * 60);
$("file").addEventListener("change", (e) => {
	const fs = [...e.target.files];
	e.target.value = ""; // so that choosing the same file again reopens it
	if (fs.length) open(fs);
});
const drop = $("drop");
for (const ev of ["dragenter", "dragover"]) drop.addEventListener(ev, (e) => { e.preventDefault(); drop.classList.add("over"); });
for (const ev of ["dragleave", "drop"]) drop.addEventListener(ev, () => drop.classList.remove("over"));
document.body.addEventListener("dragover", (e) => e.preventDefault());
document.body.addEventListener("drop", (e) => { e.preventDefault(); const fs = [...e.dataTransfer.files]; if (fs.length) open(fs); });
window.addEventListener("resize", () => {
	for (const u of xgroup.charts) u.setSize({ width: u.root.parentElement.clientWidth, height: u.height });
});

// Under perfwire serve --dlt or --pmcd, /live says what can be followed:
// the daemon, and pmcd with the metrics of serve's command line, which
// the page's metric box can change (names or prefixes, at spaces or
// commas; the link follows them).
fetch("live").then((r) => (r.ok ? r.json() : null)).then((live) => {
	if (live && live.dlt) {
		const a = $("live");
		a.href = "?src=live/dlt";
		a.textContent = "live: dlt-daemon at " + live.dlt;
		a.hidden = false;
	}
	if (live && live.pmcd) {
		const a = $("livepmcdlink"), box = $("livemetrics");
		const follow = () => {
			const names = box.value.split(/[\s,]+/).filter(Boolean);
			const url = "live/pmcd" + (names.length ? "?" + names.map((n) => "metric=" + encodeURIComponent(n)).join("&") : "");
			a.href = "?src=" + encodeURIComponent(url);
		};
		a.textContent = "live: pmcd at " + live.pmcd;
		box.value = (live.metrics || []).join(" ");
		box.addEventListener("input", follow);
		box.addEventListener("input", offerNames);
		box.addEventListener("keydown", (e) => { if (e.key === "Enter") location.href = a.href; });
		follow();
		$("livepmcd").hidden = false;
	}
}).catch(() => {});

// offerNames fills the metric box's suggestions with the namespace one
// level below the name being typed (its last word, up to its last dot),
// asked of the server (/live/pmcd/names) when that level changes; each
// suggestion is the box's text with the last word completed (a non-leaf
// with a dot, to go on typing).
let offered = null;
async function offerNames() {
	const box = $("livemetrics");
	const head = box.value.replace(/[^\s,]*$/, ""), word = box.value.slice(head.length);
	const prefix = word.includes(".") ? word.slice(0, word.lastIndexOf(".")) : "";
	if (offered && offered.prefix === prefix) { fillNames(head, offered.names); return; }
	offered = { prefix, names: [] };
	try {
		const r = await fetch("live/pmcd/names?prefix=" + encodeURIComponent(prefix));
		if (r.ok) offered.names = (await r.json()).names;
	} catch { /* no suggestions */ }
	if (offered.prefix === prefix) fillNames(head, offered.names);
}

function fillNames(head, names) {
	$("livenames").replaceChildren(...names.map((n) => {
		const o = document.createElement("option");
		o.value = head + n.name + (n.leaf ? "" : ".");
		return o;
	}));
}

const src = new URLSearchParams(location.search).get("src");
if (src) open(src);
else setState("idle", "no capture loaded");
