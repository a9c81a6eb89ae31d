// Measures the viewer in Debian's Chromium for bench/viewer.go and prints
// the figures as JSON:
//
//   node bench.mjs BASE_URL SMALL [BIG]
//
// SMALL is opened and timed to "done" (decoded and drawn) while a long-task
// observer records the longest main-thread task, a file chosen as the page
// opens, while the worker still compiles the module; then the chart is
// zoomed and panned 60 times for the median redraw. BIG, if given, is
// opened in a fresh page once the viewer says it is ready (its module
// started and warmed up, as when a user picks a file), while the renderer
// processes' resident memory is sampled; then again, for the record, in a
// fresh page as it opens (bigCold). Each KPI load says when its first
// chart was drawn (firstScreen). Options after the files:
//
//   --archive F,F,…   a PCP archive's files, opened together as the page opens
//   --mmv F           an MMV file, opened as the page opens
//   --native BIN      the native CLI: `BIN kpi --summary SMALL` runs just
//                     before each SMALL load, and small.natives holds
//                     those runs' seconds in small.runs' order (the
//                     host's load moves both of a pair alike)
//
// each timed to "done" (the median of RUNS loads).
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { chromium } from "playwright-core";
import * as longtasks from "./longtasks.mjs";

const argv = process.argv.slice(2), opts = {};
for (const k of ["--archive", "--mmv", "--native"]) {
	const at = argv.indexOf(k);
	if (at >= 0) { opts[k.slice(2)] = argv[at + 1]; argv.splice(at, 2); }
}
const [base, small, big] = argv;
const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
	headless: true,
	args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

// rendererRSS sums the resident memory of Chromium's renderer processes
// (the page and its worker live there), in bytes.
function rendererRSS() {
	let sum = 0;
	for (const pid of readdirSync("/proc")) {
		if (!/^\d+$/.test(pid)) continue;
		try {
			const cmd = readFileSync(`/proc/${pid}/cmdline`, "latin1");
			if (!cmd.includes("chromium") || !cmd.includes("--type=renderer")) continue;
			const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "latin1"));
			if (m) sum += Number(m[1]) * 1024;
		} catch { /* the process ended */ }
	}
	return sum;
}

async function open(file) {
	const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
	await longtasks.watch(page);
	await page.goto(base + "/");
	await page.waitForFunction(() => window.perfwireViewer);
	// Playwright's own script, which finds the file input, is set up in
	// the page before the load, not in one of its tasks.
	await page.$("#file");
	await longtasks.start(page);
	return page;
}

// The machine is shared and a load's time varies from run to run: each
// measure is the median of RUNS loads, each in a fresh page, its longest
// task the longest of all of them; runs lists every load's seconds.
const RUNS = 3;
const load = async (page, file) => {
	await page.setInputFiles("#file", file);
	await page.waitForFunction(() => ["done", "error"].includes(document.body.dataset.state), null, { timeout: 600000, polling: 100 });
	const longestTaskMs = await longtasks.longest(page);
	return page.evaluate((longestTaskMs) => ({ state: window.perfwireViewer.state, ...window.perfwireViewer.stats, longestTaskMs,
		firstScreen: window.perfwireViewer.firstScreen }), longestTaskMs);
};
// loadOther times an archive's or an MMV file's load: those draw nothing
// after "done", so their time is the load's seconds.
const loadOther = async (files) => {
	const loads = [];
	for (let i = 0; i < RUNS; i++) {
		const page = await open(files);
		const l = await load(page, files);
		l.drawnSeconds = l.seconds;
		loads.push(l);
		await page.close();
	}
	return median(loads);
};
const median = (loads) => {
	const by = [...loads].sort((a, b) => (a.drawnSeconds ?? Infinity) - (b.drawnSeconds ?? Infinity));
	const m = { ...by[(by.length - 1) >> 1] };
	m.longestTaskMs = Math.max(...loads.map((l) => l.longestTaskMs));
	m.runs = loads.map((l) => l.drawnSeconds);
	if (loads.some((l) => l.state !== "done")) m.state = loads.find((l) => l.state !== "done").state;
	return m;
};

// nativeSeconds is the wall time of one run of the native CLI, its output
// discarded.
const nativeSeconds = (args) => {
	const t0 = process.hrtime.bigint();
	const r = spawnSync(opts.native, args, { stdio: "ignore" });
	const s = Number(process.hrtime.bigint() - t0) / 1e9;
	if (r.status !== 0) throw new Error(`${opts.native} ${args.join(" ")}: ${r.error ?? "status " + r.status}`);
	return s;
};
// PAIRS small loads when each is paired with a native run: the figure is
// the median of the pairs' ratios.
const PAIRS = 5;

const out = {};
try {
	const smalls = [], natives = [];
	const n = opts.native ? PAIRS : RUNS;
	for (let i = 0; i < n; i++) {
		if (opts.native) natives.push(nativeSeconds(["kpi", "--summary", small]));
		const page = await open(small);
		const l = await load(page, small);
		smalls.push(l);
		if (i === n - 1) l.redrawMs = await page.evaluate(() => window.perfwireViewer.redrawMs(60));
		await page.close();
	}
	out.small = median(smalls);
	out.small.redrawMs = smalls[n - 1].redrawMs;
	if (opts.native) out.small.natives = natives;
	if (big) {
		const bigs = [];
		for (let i = 0; i < RUNS; i++) {
			const page = await open(big);
			await page.waitForFunction(() => window.perfwireViewer.ready, null, { timeout: 60000 });
			await longtasks.start(page);
			const before = rendererRSS();
			let peak = before;
			const poll = setInterval(() => { peak = Math.max(peak, rendererRSS()); }, 100);
			const l = await load(page, big);
			clearInterval(poll);
			l.rssBefore = before;
			l.rssPeak = Math.max(peak, rendererRSS());
			bigs.push(l);
			await page.close();
		}
		out.big = median(bigs);
		// Memory: the largest growth of the runs.
		const worst = bigs.reduce((a, b) => (b.rssPeak - b.rssBefore > a.rssPeak - a.rssBefore ? b : a));
		out.big.rssBefore = worst.rssBefore;
		out.big.rssPeak = worst.rssPeak;
		const page = await open(big);
		out.bigCold = await load(page, big);
		await page.close();
	}
	if (opts.archive) out.archive = await loadOther(opts.archive.split(","));
	if (opts.mmv) out.mmv = await loadOther(opts.mmv);
} finally {
	await browser.close();
}
console.log(JSON.stringify(out));
