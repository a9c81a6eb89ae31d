// The viewer's page: hands a capture to the worker and draws what it
// reports. Nothing here decodes bytes; the wasm module does.
const $ = (id) => document.getElementById(id);
const worker = new Worker("worker.js");
const PALETTE = ["#2563eb", "#dc2626", "#16a34a", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#4b5563"];
const TOP = 8;
const PAGE_KIB = 4; // dlt-kpi's RSS is in 4 KiB pages on the capture hosts

let series; // pid -> [[seconds, cpu]]
let total; // [[seconds, sum of cpu over all processes]]
let names; // pid -> command text

// text renders raw /proc bytes: valid UTF-8 as is, other bytes as \xNN,
// control characters escaped, as `perfwire kpi` prints them.
function text(u8) {
	if (typeof u8 === "string") u8 = new TextEncoder().encode(u8);
	let s = "";
	let str;
	try { str = new TextDecoder("utf-8", { fatal: true }).decode(u8); } catch { str = null; }
	if (str === null) {
		for (const b of u8) s += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : "\\x" + b.toString(16).padStart(2, "0");
		return s;
	}
	for (const ch of str) {
		const c = ch.codePointAt(0);
		if (ch === "\t") s += "\\t"; else if (ch === "\n") s += "\\n"; else if (ch === "\r") s += "\\r";
		else if (c < 0x20 || c === 0x7f) s += "\\x" + c.toString(16).padStart(2, "0");
		else s += ch;
	}
	return s;
}

function start(file) {
	series = new Map();
	names = new Map();
	total = [];
	$("status").textContent = "reading " + file.name + "…";
	$("progress").value = 0;
	file.arrayBuffer().then((buffer) => worker.postMessage({ buffer }, [buffer]));
}

worker.onmessage = (e) => {
	const m = e.data;
	if (m.type === "error") { $("status").textContent = "error: " + m.message; return; }
	$("progress").value = m.total ? m.offset / m.total : 1;
	for (const s of m.samples) {
		const t = s.tmsp / 10000;
		total.push([t, s.cpu.reduce((a, b) => a + b, 0)]);
		s.pids.forEach((pid, i) => {
			if (!series.has(pid)) series.set(pid, []);
			series.get(pid).push([t, s.cpu[i]]);
		});
	}
	if (m.table) { showTable(m.table); drawChart(); }
	const pct = m.total ? Math.round(100 * m.offset / m.total) : 100;
	$("status").textContent = m.done
		? `done: ${m.messages} KPI messages` + (m.error ? ` (stopped: ${m.error.message})` : "")
		: `decoding… ${pct}% (${m.messages} KPI messages)`;
	document.body.dataset.state = m.done ? "done" : "decoding";
};

function cell(tr, v, cls) {
	const td = tr.insertCell();
	td.textContent = v;
	if (cls) td.className = cls;
}

function showTable(t) {
	const body = $("procs").tBodies[0];
	body.replaceChildren();
	for (const p of t.processes) {
		const cmd = text(p.cmd);
		names.set(p.pid, cmd);
		const tr = body.insertRow();
		tr.dataset.pid = p.pid;
		cell(tr, p.pid);
		cell(tr, p.ppid_known ? p.ppid : "?");
		cell(tr, p.has_act ? p.cpu : "-");
		cell(tr, p.has_act ? p.rss * PAGE_KIB : "-");
		cell(tr, p.has_act && p.has_delta ? p.ctx_delta : "-");
		cell(tr, p.has_act && p.has_delta ? p.io_delta : "-");
		let flags = (p.stat_shifted ? "S" : "") + (p.partial ? "P" : "") + (p.cmd_kind === "null" ? "N" : "");
		cell(tr, flags || "-");
		cell(tr, cmd, "cmd");
	}
	const st = t.stats;
	$("proccount").textContent = `(${t.processes.length} live; ${st.inferred_stops} inferred stops, ${st.suspect_irq} suspect IRQ groups)`;
	const irqs = $("irqs").tBodies[0];
	irqs.replaceChildren();
	const irqRows = [...t.irqs].sort((a, b) => b.per_second - a.per_second || b.count - a.count);
	for (const q of irqRows) {
		const tr = irqs.insertRow();
		cell(tr, q.name, "cmd");
		cell(tr, q.cpu);
		cell(tr, q.count);
		cell(tr, q.has_delta ? q.delta : "-");
		cell(tr, q.has_delta ? q.per_second.toFixed(1) : "-");
	}
}

function drawChart() {
	const cv = $("chart"), g = cv.getContext("2d");
	const W = cv.width, H = cv.height, L = 50, R = 10, T = 10, B = 30;
	g.clearRect(0, 0, W, H);
	const top = [...series].map(([pid, pts]) => [pid, pts, Math.max(...pts.map((p) => p[1]))])
		.sort((a, b) => b[2] - a[2] || a[0] - b[0]).slice(0, TOP);
	let t0 = Infinity, t1 = -Infinity, ymax = 10;
	for (const [t, v] of total) { t0 = Math.min(t0, t); t1 = Math.max(t1, t); ymax = Math.max(ymax, v); }
	if (!isFinite(t0)) return;
	if (t1 === t0) t1 = t0 + 1;
	ymax = Math.ceil(ymax / 10) * 10;
	const x = (t) => L + (t - t0) / (t1 - t0) * (W - L - R), y = (v) => H - B - v / ymax * (H - T - B);
	g.strokeStyle = "#ccd"; g.fillStyle = "#556"; g.font = "12px sans-serif"; g.lineWidth = 1;
	for (let i = 0; i <= 4; i++) {
		const v = ymax * i / 4;
		g.beginPath(); g.moveTo(L, y(v)); g.lineTo(W - R, y(v)); g.stroke();
		g.fillText(String(v), 8, y(v) + 4);
	}
	for (let i = 0; i <= 5; i++) {
		const t = t0 + (t1 - t0) * i / 5;
		g.textAlign = i === 0 ? "left" : i === 5 ? "right" : "center";
		g.fillText(t.toFixed(1) + " s", x(t), H - 10);
	}
	g.textAlign = "left";
	const legend = $("legend");
	legend.replaceChildren();
	// The machine's total: the sum over every process with a sample.
	g.strokeStyle = "#9aa3ad"; g.lineWidth = 1.5; g.setLineDash([5, 4]);
	g.beginPath();
	total.forEach(([t, v], j) => (j ? g.lineTo(x(t), y(v)) : g.moveTo(x(t), y(v))));
	g.stroke();
	g.setLineDash([]);
	const li = document.createElement("li");
	li.innerHTML = `<i style="background:#9aa3ad"></i>`;
	li.append("all processes");
	legend.append(li);
	top.forEach(([pid, pts], i) => {
		g.strokeStyle = PALETTE[i % PALETTE.length]; g.lineWidth = 2;
		g.beginPath();
		pts.forEach(([t, v], j) => (j ? g.lineTo(x(t), y(v)) : g.moveTo(x(t), y(v))));
		g.stroke();
		// Dots too: a process seen in one ACT group has no line.
		g.fillStyle = PALETTE[i % PALETTE.length];
		for (const [t, v] of pts) { g.beginPath(); g.arc(x(t), y(v), 2.5, 0, 2 * Math.PI); g.fill(); }
		const li = document.createElement("li");
		li.innerHTML = `<i style="background:${PALETTE[i % PALETTE.length]}"></i>`;
		li.append(`${pid} ${(names.get(pid) || "").slice(0, 40)}`);
		legend.append(li);
	});
}

$("file").addEventListener("change", (e) => e.target.files[0] && start(e.target.files[0]));
const drop = $("drop");
for (const ev of ["dragenter", "dragover"]) drop.addEventListener(ev, (e) => { e.preventDefault(); drop.classList.add("over"); });
// The drop itself bubbles to the body, which handles drops anywhere.
for (const ev of ["dragleave", "drop"]) drop.addEventListener(ev, () => drop.classList.remove("over"));
document.body.addEventListener("dragover", (e) => e.preventDefault());
document.body.addEventListener("drop", (e) => { e.preventDefault(); const f = e.dataTransfer.files[0]; if (f) start(f); });
