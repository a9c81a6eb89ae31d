// Drives the built viewer in Debian's Chromium with playwright-core and
// prints, as JSON, what the page showed at each step, for
// viewer_conformance_test.go to check against the CLI:
//
//   node e2e.mjs BASE_URL SHOTDIR CAPTURE DROPPED OTHER REUSE
//
// CAPTURE is opened with the file picker, DROPPED by drag and drop, OTHER
// (no format the viewer knows) must be refused with a message, BASE_URL/slow/big.dlt (served
// slowly) is opened and cancelled, and CAPTURE is opened by URL
// (?src=BASE_URL/captures/NAME). REUSE (reused pids, ended processes) is
// opened with the file picker and its charts zoomed from the RSS chart.
// $BIG, if set, is opened at full speed on a fresh page, timed and
// watched for long main-thread tasks.
// The message logs of CAPTURE (whole) and REUSE (under each filter) are
// read back.
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import * as longtasks from "./longtasks.mjs";

const [base, shots, capture, dropped, other, reuse] = process.argv.slice(2);
const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
	headless: true,
	// The machine's network is closed: keep Chromium from dialling out.
	args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--js-flags=--expose-gc"], // the worker's gc(), for the loads under collection
});
const out = {};
// errors are what the page logged as errors (checked empty at the end);
// workerLog what its worker logged (Go's runtime writes its fatal errors
// there), printed when a load does not end.
const errors = [], workerLog = [];
// loaded waits for a load's end; one that does not end says where the
// page was and what it logged.
const loaded = async (page) => {
	try {
		await page.waitForFunction(() => ["done", "error", "cancelled"].includes(document.body.dataset.state), null, { timeout: 120000 });
	} catch (e) {
		const at = await page.evaluate(() => ({ state: document.body.dataset.state, title: document.getElementById("title").textContent,
			status: document.getElementById("status").textContent })).catch((why) => String(why));
		throw new Error(`${e.message}\npage: ${JSON.stringify(at)}\npage errors: ${JSON.stringify(errors)}\nworker log: ${JSON.stringify(workerLog.slice(-20))}`);
	}
};
// settled waits for a load's end, then has the charts below the fold
// drawn (the viewer draws them when scrolled to): the checks and the
// full-page screenshots want them all.
const settled = async (page) => {
	await loaded(page);
	await page.evaluate(() => window.perfwireViewer.drawCharts());
};
// inks counts the drawn pixels of each chart's canvas (0 without one).
const inks = (page) => page.evaluate(() => Object.fromEntries(["chart", "rsschart", "ctxchart", "iochart", "irqchart"].map((id) => {
	const c = document.querySelector("#" + id + " canvas");
	if (!c) return [id, 0];
	const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
	let n = 0;
	for (let i = 3; i < d.length; i += 4) if (d[i]) n++;
	return [id, n];
})));
// chartInks is a snapshot's ink: the CPU chart's, and the others' by id.
const chartInks = ({ chart, ...others }) => ({ chartInk: chart, chartsInk: others });
const snapshot = async (page) => ({ ...(await page.evaluate(() => ({
	state: document.body.dataset.state,
	status: document.getElementById("status").textContent,
	summaryText: document.getElementById("summary").textContent,
	summary: window.perfwireViewer.summary,
	processes: window.perfwireViewer.processes,
	stats: window.perfwireViewer.stats,
	rowsInDOM: document.querySelectorAll("#procs .vbody .vrow").length,
	irqRows: document.querySelectorAll("#irqs .vbody .vrow").length,
	legend: [...document.querySelectorAll("#chart .u-legend .u-series")].map((s) => s.textContent),
	charts: window.perfwireViewer.charts(),
}))), ...chartInks(await inks(page)) });
try {
	const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
	page.on("pageerror", (e) => errors.push(String(e)));
	page.on("worker", (w) => w.on("console", (m) => workerLog.push(`${m.type()}: ${m.text()}`)));
	// An archive opened by URL fetches its volumes until one is missing:
	// that one 404 is expected, as is the 502 of a pmcd that is down.
	page.on("console", (m) => m.type() === "error" && !/\/(captures|slowarch)\/m3\.3$/.test(m.location().url) &&
		!(process.env.LIVE_DOWN && m.location().url.startsWith(process.env.LIVE_DOWN + "/live/pmcd")) && errors.push(m.text()));
	await page.goto(base + "/");
	await page.evaluate(() => {
		window.__statuses = [];
		new MutationObserver(() => window.__statuses.push(document.getElementById("status").textContent))
			.observe(document.getElementById("status"), { childList: true, characterData: true, subtree: true });
	});

	// 1. The file picker. The charts below the fold (on this 1000-pixel
	// window the I/O and interrupt charts) are drawn once scrolled to.
	await page.setInputFiles("#file", capture);
	await loaded(page);
	// The charts that come near the viewport while the load ends are drawn
	// by the IntersectionObserver, which reports in a rendering step.
	await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
	const lazy = { done: await inks(page), tops: await page.evaluate(() => Object.fromEntries(
		["chart", "rsschart", "ctxchart", "iochart", "irqchart"].map((id) => [id, document.getElementById(id).getBoundingClientRect().top]))),
	viewport: await page.evaluate(() => innerHeight) };
	await page.evaluate(() => document.getElementById("iochart").scrollIntoView());
	await page.waitForFunction(() => document.querySelector("#irqchart canvas"), null, { timeout: 10000 });
	await page.waitForTimeout(100); // uPlot paints in a microtask, the page in the next frame
	lazy.scrolled = await inks(page);
	await page.evaluate(() => window.scrollTo(0, 0));
	await settled(page);
	out.picked = await snapshot(page);
	out.picked.lazy = lazy;
	out.picked.statuses = await page.evaluate(() => window.__statuses);
	await page.screenshot({ path: join(shots, "viewer-kpi.png"), fullPage: true });
	const logDone = () => page.waitForFunction(() => ["done", "error"].includes(window.perfwireViewer.log.state), null, { timeout: 60000 });
	await page.click("#logload");
	await logDone();
	out.pickedLog = await page.evaluate(() => ({ state: window.perfwireViewer.log.state, rows: window.perfwireViewer.log.rows() }));

	// 2. Zoom with the wheel and pan with the keyboard: the x range changes.
	const xs = () => page.evaluate(() => window.perfwireViewer.range());
	const before = await xs();
	const over = page.locator("#chart .u-over");
	await page.evaluate(() => window.scrollTo(0, 0)); // the log's button scrolled down
	const box = await over.boundingBox();
	await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
	for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -120);
	const zoomed = await xs();
	await over.focus();
	await page.keyboard.press("d");
	const panned = await xs();
	out.zoom = { before, zoomed, panned };
	await page.screenshot({ path: join(shots, "viewer-kpi-zoomed.png"), fullPage: true });

	// 3. Sort by CPU, descending, then filter on a command.
	await page.click("#procs .vhead span[data-key=cpu]");
	out.sortedFirst = await page.evaluate(() => [...document.querySelectorAll("#procs .vbody .vrow")].slice(0, 3).map((r) => r.children[2].textContent));
	await page.fill("#filter", "dlt-daemon");
	out.filtered = await page.evaluate(() => [...document.querySelectorAll("#procs .vbody .vrow")].map((r) => r.lastChild.textContent));
	await page.fill("#filter", "");
	await page.check("#tree");
	out.treeRows = await page.evaluate(() => document.querySelectorAll("#procs .vbody .vrow").length);
	await page.uncheck("#tree");

	// 4. Drag and drop a second capture.
	const dt = await page.evaluateHandle(([name, b64]) => {
		const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
		const d = new DataTransfer();
		d.items.add(new File([bytes], name));
		return d;
	}, [basename(dropped), readFileSync(dropped).toString("base64")]);
	await page.dispatchEvent("#drop", "dragenter", { dataTransfer: dt });
	await page.dispatchEvent("#drop", "drop", { dataTransfer: dt });
	await page.waitForFunction(() => document.body.dataset.state === "decoding" || document.body.dataset.state === "done");
	await settled(page);
	out.dropped = await snapshot(page);

	// 5. A file in no format the viewer knows: a clear message, state "error".
	await page.setInputFiles("#file", other);
	await settled(page);
	out.other = await snapshot(page);
	await page.screenshot({ path: join(shots, "viewer-unknown-format.png"), fullPage: true });

	// 6. A big capture that arrives slowly (the test's server dribbles it),
	// cancelled while it decodes; then again, replaced by a small one
	// mid-decode: the small one wins.
	// Its first screen, the CPU chart and the process table, comes from
	// the first batches, while the rest still arrives.
	await page.evaluate(() => window.perfwireViewer.open("/slow/big.dlt"));
	await page.waitForFunction(() => window.perfwireViewer.firstScreen || document.body.dataset.state !== "decoding", null, { timeout: 60000 });
	out.firstScreen = await page.evaluate(() => ({ ...window.perfwireViewer.firstScreen, state: window.perfwireViewer.state,
		canvas: !!document.querySelector("#chart canvas"), rowsShown: document.querySelectorAll("#procs .vbody .vrow").length }));
	await page.waitForFunction(() => /decoding… \d/.test(document.getElementById("status").textContent));
	await page.click("#cancel");
	out.cancelled = await snapshot(page);
	await page.evaluate(() => window.perfwireViewer.open("/slow/big.dlt"));
	await page.waitForFunction(() => /decoding… \d/.test(document.getElementById("status").textContent));
	await page.setInputFiles("#file", dropped);
	await settled(page);
	out.replaced = await snapshot(page);

	// 7. ?src=URL opens a capture by URL.
	await page.goto(base + "/?src=" + encodeURIComponent("/captures/" + basename(capture)));
	await settled(page);
	out.byURL = await snapshot(page);

	// 7b. Reused pids and ended processes: their rows, each chart, and
	// zooming from the RSS chart moves the CPU chart too (one time axis);
	// the tree puts each child under the process of its parent's pid that
	// ran when it started.
	await page.setInputFiles("#file", reuse);
	await settled(page);
	out.reuse = await snapshot(page);
	await page.screenshot({ path: join(shots, "viewer-kpi-reuse.png"), fullPage: true });
	const cpuRange = () => page.evaluate(() => window.perfwireViewer.range());
	const rssOver = page.locator("#rsschart .u-over");
	await rssOver.scrollIntoViewIfNeeded();
	const rbox = await rssOver.boundingBox();
	const beforeLinked = await cpuRange();
	await page.mouse.move(rbox.x + rbox.width * 0.3, rbox.y + rbox.height / 2);
	for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -120);
	out.linked = { before: beforeLinked, after: await cpuRange() };
	await page.screenshot({ path: join(shots, "viewer-kpi-reuse-zoomed.png"), fullPage: true });
	await page.check("#tree");
	out.reuseTree = await page.evaluate(() => [...document.querySelectorAll("#procs .vbody .vrow")].map((r) => [r.children[0].textContent, r.children[6].textContent, r.lastChild.style.paddingLeft || "0px"]));
	await page.uncheck("#tree");

	// The message log of REUSE, whole, then filtered by kind, by pid, by
	// text and by the charts' (zoomed) time range, one at a time.
	await page.click("#logload");
	await logDone();
	const shown = () => page.evaluate(() => ({ shown: window.perfwireViewer.log.shown, rows: window.perfwireViewer.log.rows(),
		drawn: document.querySelectorAll("#log .vbody .vrow").length }));
	out.reuseLog = { all: await shown() };
	await page.selectOption("#logkind", "ACT");
	out.reuseLog.kind = await shown();
	await page.selectOption("#logkind", "-1");
	await page.fill("#logpid", "300");
	out.reuseLog.pid = await shown();
	await page.fill("#logpid", "");
	await page.fill("#logtext", "JOB-");
	out.reuseLog.text = await shown();
	await page.fill("#logtext", "");
	await page.click("#logrange");
	out.reuseLog.range = { from: Number(await page.inputValue("#logfrom")), to: Number(await page.inputValue("#logto")), ...await shown() };
	await page.locator("#log").scrollIntoViewIfNeeded();
	await page.screenshot({ path: join(shots, "viewer-kpi-reuse-log.png"), fullPage: true });

	// 7c. The message log kept as the bytes are decoded: a serial capture
	// ($SERIAL, CAPTURE's messages after "DLS" 01) has it when done; then
	// CAPTURE streamed without a length (/stream/, as the live relay), the
	// log keeping its last 100 messages.
	const logOf = () => page.evaluate(() => {
		const l = window.perfwireViewer.log;
		return { state: l.state, messages: l.messages, dropped: l.dropped, rows: l.rows(), count: document.getElementById("logcount").textContent,
			button: document.getElementById("logload").disabled };
	});
	if (process.env.SERIAL) {
		await page.setInputFiles("#file", process.env.SERIAL);
		await settled(page);
		await logDone();
		out.serialLog = await logOf();
		// The same, damaged ($SERIAL_DAMAGED): resynchronised as perfwire
		// kpi resynchronises.
		if (process.env.SERIAL_DAMAGED) {
			await page.setInputFiles("#file", process.env.SERIAL_DAMAGED);
			await settled(page);
			await logDone();
			out.serialDamagedLog = await logOf();
		}
		await page.evaluate(() => window.perfwireViewer.log.setLimit(100));
		await page.evaluate((name) => window.perfwireViewer.open("/stream/" + name), basename(capture));
		await settled(page);
		await logDone();
		out.streamLog = await logOf();
		await page.evaluate(() => window.perfwireViewer.log.setLimit(100000));
		// The same, with a live window of 5 s: the charts keep the last 5 s.
		await page.evaluate(() => window.perfwireViewer.setWindow(5));
		await page.evaluate((name) => window.perfwireViewer.open("/stream/" + name), basename(capture));
		await settled(page);
		out.windowed = await snapshot(page);
		await page.evaluate(() => window.perfwireViewer.setWindow(600));
	}

	// 9. PCP: two recorded PDU streams and an MMV file.
	out.pcp = {};
	for (const f of process.env.PCP_FILES.split(",")) {
		await page.setInputFiles("#file", f);
		await settled(page);
		out.pcp[basename(f)] = {
			state: await page.evaluate(() => document.body.dataset.state),
			status: await page.textContent("#status"),
			pdu: await page.evaluate(() => window.perfwireViewer.pcp),
			// Every counter's values and rates, as the chart draws them.
			series: await page.evaluate(() => {
				const p = window.perfwireViewer.pcp;
				return p ? Object.fromEntries(p.metrics.filter((m) => m.counter).map((m) => [m.pmid, p.series(m.pmid)])) : null;
			}),
			// 64-bit numbers come as BigInts: as text, all digits kept.
			mmv: await page.evaluate(() => JSON.stringify(window.perfwireViewer.mmv, (k, v) => (typeof v === "bigint" ? v.toString() : v))),
			chartInk: await page.evaluate(() => {
				const c = document.querySelector("#pcpchart canvas");
				if (!c) return 0;
				const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
				let n = 0;
				for (let i = 3; i < d.length; i += 4) if (d[i]) n++;
				return n;
			}),
		};
		await page.screenshot({ path: join(shots, "viewer-" + basename(f) + ".png"), fullPage: true });
	}

	// 10. A PCP archive: its files picked together; every metric's values
	// table, the tree's leaves, a counter picked from the tree and charted
	// as rates; then by URL (?src= its .meta, the volumes fetched beside
	// it), its .meta alone, and with a volume still compressed.
	if (process.env.ARCHIVE) {
		const files = process.env.ARCHIVE.split(",");
		await page.setInputFiles("#file", files);
		await settled(page);
		const arch = () => page.evaluate(() => {
			const a = window.perfwireViewer.archive;
			if (!a) return { state: document.body.dataset.state, status: document.getElementById("status").textContent };
			return {
				state: document.body.dataset.state, status: document.getElementById("status").textContent,
				records: a.records, marks: a.marks, skipped: a.skipped, files: a.files, metrics: a.metrics,
				rows: Object.fromEntries(a.metrics.map((m) => [m.name, a.rows(m.name)])),
				leaves: [...document.querySelectorAll("#archtree .leaf")].map((l) => l.dataset.name),
			};
		});
		out.archive = await arch();
		await page.click('#archtree .leaf[data-name="simple.time.user"]');
		await page.click('#archtree .leaf[data-name="kernel.all.load"]');
		out.archive.charted = await page.evaluate(() => window.perfwireViewer.archive.charted);
		out.archive.charts = await page.evaluate(() => Object.fromEntries(window.perfwireViewer.archive.charted.map((n) => [n, window.perfwireViewer.archive.chart(n)])));
		// The values table on screen (the metric picked last) as drawn.
		out.archive.table = await page.evaluate(() => [...document.querySelectorAll("#archvalues .vbody .vrow")].map((r) => [...r.children].map((c) => c.textContent)));
		out.archive.inks = await page.evaluate(() => [...document.querySelectorAll("#archcharts canvas")].map((c) => {
			const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
			let n = 0;
			for (let i = 3; i < d.length; i += 4) if (d[i]) n++;
			return n;
		}));
		await page.screenshot({ path: join(shots, "viewer-archive.png"), fullPage: true });
		// Each metric's help text and labels as the page prints them
		// under its values table: each picked in turn.
		out.archive.labelText = await page.evaluate(() => {
			const a = window.perfwireViewer.archive, text = {};
			for (const m of a.metrics) {
				const was = a.charted.includes(m.name);
				if (was) a.hide(m.name);
				a.show(m.name);
				text[m.name] = document.getElementById("archhelp").textContent;
				a.hide(m.name);
				if (was) a.show(m.name);
			}
			return text;
		});
		// pmtime's VCR: to the start, three records on and one back (the
		// buttons), played at 1× for half a second and paused, then
		// played to the end.
		const vcrState = () => page.evaluate(() => {
			const v = window.perfwireViewer.archive.vcr;
			return { position: v.position, playing: v.playing, range: v.range, at: v.at(),
				text: document.getElementById("archpos").textContent, now: document.getElementById("archnow").textContent };
		});
		out.archive.vcr = { initial: await vcrState() };
		await page.click("#vcrstart");
		for (let i = 0; i < 3; i++) await page.click("#vcrstep");
		await page.click("#vcrback");
		out.archive.vcr.stepped = await vcrState();
		await page.selectOption("#vcrspeed", "1");
		await page.click("#vcrplay");
		await page.waitForTimeout(500);
		await page.click("#vcrplay");
		out.archive.vcr.paused = await vcrState();
		await page.screenshot({ path: join(shots, "viewer-archive-vcr.png"), fullPage: true });
		await page.waitForTimeout(400);
		out.archive.vcr.still = await vcrState();
		await page.click("#vcrplay");
		await page.waitForFunction(() => !window.perfwireViewer.archive.vcr.playing, null, { timeout: 10000 });
		out.archive.vcr.end = await vcrState();
		// Dropped together: the same archive.
		const dropAll = await page.evaluateHandle((list) => {
			const d = new DataTransfer();
			for (const [name, b64] of list) d.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name));
			return d;
		}, files.map((f) => [basename(f), readFileSync(f).toString("base64")]));
		await page.dispatchEvent("#drop", "drop", { dataTransfer: dropAll });
		await page.waitForFunction(() => window.perfwireViewer.state !== "done" || window.perfwireViewer.archive);
		await settled(page);
		out.archiveDropped = await arch();
		// With a volume gzipped: the browser decompresses it.
		await page.setInputFiles("#file", files.map((f) => (f.endsWith(".0") ?
			{ name: basename(f) + ".gz", mimeType: "application/gzip", buffer: gzipSync(readFileSync(f)) } :
			{ name: basename(f), mimeType: "application/octet-stream", buffer: readFileSync(f) })));
		await settled(page);
		out.archiveGzip = await arch();
		// The files opened again and again while the worker's collector
		// runs (Chromium has --expose-gc): a stream being read must stay
		// alive, or its read never settles and the load never ends.
		out.archiveUnderGC = [];
		for (let i = 0; i < 8; i++) {
			await page.setInputFiles("#file", files);
			const w = page.workers().at(-1);
			for (let k = 0; k < 50 && await page.evaluate(() => document.body.dataset.state) === "decoding"; k++) await w.evaluate(() => gc());
			await page.waitForFunction(() => document.body.dataset.state !== "decoding", null, { timeout: 15000 }).catch(() => {});
			out.archiveUnderGC.push(await page.evaluate(() => ({ state: document.body.dataset.state, status: document.getElementById("status").textContent })));
		}
		// By URL from a server that answers slowly, cancelled while the
		// volumes arrive: it stays cancelled.
		await page.evaluate(() => window.perfwireViewer.open("/slowarch/m3.meta"));
		await page.waitForFunction(() => /decoding… /.test(document.getElementById("status").textContent));
		await page.click("#cancel");
		await page.waitForTimeout(3000);
		out.archiveCancelled = await page.evaluate(() => ({ state: document.body.dataset.state, archive: window.perfwireViewer.archive }));
		const meta = files.find((f) => f.endsWith(".meta"));
		await page.goto(base + "/?src=" + encodeURIComponent("/captures/" + basename(meta)));
		await settled(page);
		out.archiveByURL = await arch();
		await page.setInputFiles("#file", meta);
		await settled(page);
		out.archiveAlone = await snapshot(page);
		await page.setInputFiles("#file", [{ name: basename(meta), mimeType: "application/octet-stream", buffer: readFileSync(meta) }, { name: "m3.0.xz", mimeType: "application/x-xz", buffer: Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0]) }]);
		await settled(page);
		out.archiveXZ = await snapshot(page);
		// An archive of a float and a double metric ($FLOAT_ARCHIVE):
		// each value written as its descriptor's type says.
		if (process.env.FLOAT_ARCHIVE) {
			await page.setInputFiles("#file", process.env.FLOAT_ARCHIVE.split(","));
			await settled(page);
			out.archiveFloat = await arch();
		}
	}

	// 8. Live: perfwire serve --dlt (at $LIVE) relays the running daemon;
	// the page follows it from its "live" link, shows the table as it
	// grows, and stays decoding until cancelled.
	if (process.env.LIVE) {
		await page.goto(process.env.LIVE + "/");
		await page.waitForSelector("#live:not([hidden])");
		out.liveLink = await page.textContent("#live");
		await page.click("#live");
		// The link loads the page again: until its script has run there is
		// no perfwireViewer.
		await page.waitForFunction(() => window.perfwireViewer?.processes.length > 0 && window.perfwireViewer.log.messages >= 20, null, { timeout: 30000 });
		out.live = await snapshot(page);
		out.liveLog = await logOf();
		await page.screenshot({ path: join(shots, "viewer-live.png"), fullPage: true });
		await page.click("#cancel");
		out.liveCancelled = await snapshot(page);
		// A short window (3 s) over 6 s of the daemon: the charts keep 3 s.
		await page.evaluate(() => window.perfwireViewer.setWindow(3));
		await page.click("#live");
		await page.waitForFunction(() => window.perfwireViewer?.charts().cpu, null, { timeout: 30000 });
		await page.waitForTimeout(6000);
		out.liveWindow = await page.evaluate(() => ({ state: document.body.dataset.state, window: window.perfwireViewer.window,
			x: window.perfwireViewer.charts().cpu.x, irq: window.perfwireViewer.charts().irq?.x ?? [] }));
		await page.click("#cancel");
		await page.evaluate(() => window.perfwireViewer.setWindow(600));
	}
	// 11. Live pmcd: perfwire serve --pmcd (at $LIVE, the metrics on its
	// command line) relays pmcd; the page follows it from its link and
	// charts the values as they come, a counter as rates; sample.colour
	// picked from the table draws a line per instance. A pmcd that is
	// down (the server at $LIVE_DOWN) is an error that says so.
	if (process.env.LIVE) {
		await page.goto(process.env.LIVE + "/");
		await page.waitForSelector("#livepmcd:not([hidden])");
		out.pmcdLink = { text: await page.textContent("#livepmcdlink"), metrics: await page.inputValue("#livemetrics") };
		// The box offers the namespace below what is typed.
		const given = await page.inputValue("#livemetrics");
		await page.fill("#livemetrics", given + " sample.lo");
		await page.waitForFunction(() => document.querySelectorAll("#livenames option").length > 0);
		out.pmcdOffered = await page.evaluate(() => [...document.querySelectorAll("#livenames option")].map((o) => o.value));
		await page.fill("#livemetrics", given);
		await page.click("#livepmcdlink");
		// Five RESULTs at the server's 500 ms: four rates of each counter.
		await page.waitForFunction(() => {
			const p = window.perfwireViewer?.pcp; // the link loads the page again
			return p && p.metrics.length && p.series(p.metrics.find((m) => m.name === "sample.milliseconds").pmid).some((s) => s.t.length >= 5);
		}, null, { timeout: 30000 });
		out.pmcdLive = await page.evaluate(() => {
			const p = window.perfwireViewer.pcp;
			return { state: document.body.dataset.state, status: document.getElementById("status").textContent, src: location.search,
				metrics: p.metrics, series: Object.fromEntries(p.metrics.map((m) => [m.name, p.series(m.pmid)])), points: p.points };
		});
		await page.click("#pcpmetrics .vbody .vrow:has-text('sample.colour')");
		await page.waitForTimeout(1200); // a refresh keeps the pick
		out.pmcdColour = await page.evaluate(() => ({
			picked: window.perfwireViewer.pcp.picked,
			legend: [...document.querySelectorAll("#pcpchart .u-legend .u-series")].map((s) => s.textContent),
			latest: [...document.querySelectorAll("#pcplatest .vbody .vrow")].map((r) => [...r.children].map((c) => c.textContent)),
		}));
		await page.screenshot({ path: join(shots, "viewer-live-pmcd.png"), fullPage: true });
		await page.click("#cancel");
		out.pmcdCancelled = await page.evaluate(() => document.body.dataset.state);
		// A window of 1.5 s over 4 s of RESULTs every 500 ms.
		await page.evaluate(() => window.perfwireViewer.setWindow(1.5));
		await page.click("#livepmcdlink");
		await page.waitForFunction(() => window.perfwireViewer?.pcp && window.perfwireViewer.pcp.metrics.length, null, { timeout: 30000 });
		await page.waitForTimeout(4000);
		out.pmcdWindow = await page.evaluate(() => {
			const p = window.perfwireViewer.pcp;
			return { state: document.body.dataset.state, window: window.perfwireViewer.window, series: Object.fromEntries(p.metrics.map((m) => [m.name, p.series(m.pmid)])) };
		});
		await page.click("#cancel");
		await page.evaluate(() => window.perfwireViewer.setWindow(600));
	}
	// 11b. Instance labels: sample.bin's instances have labels of their
	// own, sample.colour's none; the page shows each metric's labels and
	// each instance's, as pminfo -l prints them.
	if (process.env.LIVE) {
		await page.goto(process.env.LIVE + "/?src=" + encodeURIComponent("live/pmcd?metric=sample.bin,sample.colour"));
		await page.waitForFunction(() => {
			const p = window.perfwireViewer.pcp;
			return p && p.metrics.length === 2 && p.metrics.every((m) => m.instLabels && m.values > 0);
		}, null, { timeout: 30000 });
		out.pmcdInstLabels = await page.evaluate(() => {
			const p = window.perfwireViewer.pcp, info = {}, latest = {};
			for (const m of p.metrics) {
				p.pick(m.pmid);
				info[m.name] = document.getElementById("pcpinfo").textContent;
				latest[m.name] = [...document.querySelectorAll("#pcplatest .vbody .vrow")].map((r) => [...r.children].map((c) => c.textContent));
			}
			return { metrics: p.metrics, info, latest };
		});
		await page.screenshot({ path: join(shots, "viewer-live-pmcd-labels.png"), fullPage: true });
		await page.click("#cancel");
	}
	if (process.env.LIVE_DOWN) {
		await page.goto(process.env.LIVE_DOWN + "/?src=live/pmcd?metric=sample.load");
		await settled(page);
		out.pmcdDown = await page.evaluate(() => ({ state: document.body.dataset.state, status: document.getElementById("status").textContent }));
		await page.screenshot({ path: join(shots, "viewer-live-pmcd-down.png"), fullPage: true });
	}
	// 12. perfwire serve (at $LIVE) stopped and started again on the same
	// address during a live session, dlt-kpi then pmcd: the page says it
	// is reconnecting, then goes on with new values.
	if (process.env.LIVE) {
		out.restart = {};
		const stopped = /ERR_CONNECTION_REFUSED|ERR_INCOMPLETE_CHUNKED_ENCODING|ERR_EMPTY_RESPONSE|ERR_CONNECTION_RESET|network error/;
		for (const [name, src, count] of [
			["dlt", "live/dlt", "window.perfwireViewer.charts().cpu?.x.length ?? 0"],
			["pmcd", "live/pmcd", "(() => { const p = window.perfwireViewer.pcp; return p ? p.series(p.metrics.find((m) => m.name === 'sample.milliseconds').pmid)[0]?.t.length ?? 0 : 0; })()"],
		]) {
			const n = () => page.evaluate(count);
			await page.goto(process.env.LIVE + "/?src=" + src);
			await page.evaluate(() => {
				window.__statuses = [];
				new MutationObserver(() => window.__statuses.push(document.getElementById("status").textContent))
					.observe(document.getElementById("status"), { childList: true, characterData: true, subtree: true });
			});
			await page.waitForFunction((c) => eval(c) >= 2, count, { timeout: 30000 });
			const before = await n();
			const tolerate = errors.length;
			await fetch(base + "/control/stop-live");
			await page.waitForFunction(() => document.body.dataset.state === "reconnecting", null, { timeout: 20000 });
			const during = await page.evaluate(() => ({ state: document.body.dataset.state, status: document.getElementById("status").textContent,
				cancel: !document.getElementById("cancel").disabled }));
			await page.screenshot({ path: join(shots, `viewer-live-${name}-reconnecting.png`), fullPage: true });
			await page.waitForTimeout(1500); // an attempt or two that fail
			const started = await fetch(base + "/control/start-live");
			await page.waitForFunction(([c, k]) => document.body.dataset.state === "decoding" && eval(c) > k + 1, [count, before], { timeout: 30000 });
			out.restart[name] = { before, after: await n(), during, started: started.status, state: await page.evaluate(() => document.body.dataset.state),
				statuses: await page.evaluate(() => window.__statuses.filter((s) => /reconnect/.test(s))) };
			// The browser logs the broken stream and the refused attempts.
			for (const e of errors.splice(tolerate)) if (!stopped.test(e)) errors.push(e);
			await page.click("#cancel");
		}
	}
	// The big capture (the real one 40 times, 6.4 MB) chosen at full
	// speed on a fresh page once the viewer is ready, as a user picks a
	// file: the longest main-thread task while it loads (a long-task
	// observer), when its first chart came and when it was ready.
	if (process.env.BIG) {
		const fresh = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
		fresh.on("pageerror", (e) => errors.push(String(e)));
		await longtasks.watch(fresh);
		await fresh.goto(base + "/");
		await fresh.waitForFunction(() => window.perfwireViewer && window.perfwireViewer.ready, null, { timeout: 60000 });
		await fresh.$("#file"); // Playwright's own script, set up before the load
		await longtasks.start(fresh);
		await fresh.setInputFiles("#file", process.env.BIG);
		await loaded(fresh);
		const longestTaskMs = await longtasks.longest(fresh);
		out.fullSpeed = await fresh.evaluate((longestTaskMs) => ({ state: window.perfwireViewer.state, summary: window.perfwireViewer.summary,
			stats: window.perfwireViewer.stats, firstScreen: window.perfwireViewer.firstScreen, longestTaskMs }), longestTaskMs);
		await fresh.close();
	}
	out.errors = errors;
} finally {
	await browser.close();
}
console.log(JSON.stringify(out));
