// Drives the built viewer in Debian's Chromium with playwright-core: opens
// CAPTURE through the file picker, waits for decoding to finish, saves a
// screenshot to SHOT and prints what the page shows as JSON.
//
// Then drops DROPPED on the drop zone, as a drag and drop from a file
// manager does, and reports the status line that load ends with.
//
//   node e2e.mjs URL CAPTURE SHOT DROPPED
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { chromium } from "playwright-core";

const [url, capture, shot, dropped] = process.argv.slice(2);
const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
	headless: true,
	// The machine's network is closed: keep Chromium from dialling out.
	args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
	const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
	const errors = [];
	page.on("pageerror", (e) => errors.push(String(e)));
	page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
	await page.goto(url);
	// Record every status the page shows, to see the progress move.
	await page.evaluate(() => {
		window.__statuses = [];
		new MutationObserver(() => window.__statuses.push(document.getElementById("status").textContent))
			.observe(document.getElementById("status"), { childList: true, characterData: true, subtree: true });
	});
	await page.setInputFiles("#file", capture);
	// Progress must move while the worker decodes; the page stays live.
	await page.waitForSelector("body[data-state=done]", { timeout: 120000 });
	const result = await page.evaluate(() => ({
		status: document.getElementById("status").textContent,
		statuses: window.__statuses,
		progress: document.getElementById("progress").value,
		processes: [...document.querySelectorAll("#procs tbody tr")].map((r) => ({
			pid: Number(r.dataset.pid), cmd: r.cells[7].textContent, cpu: r.cells[2].textContent,
		})),
		irqs: [...document.querySelectorAll("#irqs tbody tr")].map((r) => r.cells[0].textContent),
		legend: [...document.querySelectorAll("#legend li")].map((l) => l.textContent),
		chartInk: (() => {
			const c = document.getElementById("chart");
			const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
			let n = 0;
			for (let i = 3; i < d.length; i += 4) if (d[i]) n++;
			return n;
		})(),
	}));
	result.errors = errors;
	await page.screenshot({ path: shot, fullPage: true });

	const dt = await page.evaluateHandle(([name, b64]) => {
		const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
		const d = new DataTransfer();
		d.items.add(new File([bytes], name));
		return d;
	}, [basename(dropped), readFileSync(dropped).toString("base64")]);
	await page.evaluate(() => { document.body.dataset.state = ""; });
	await page.dispatchEvent("#drop", "dragenter", { dataTransfer: dt });
	await page.dispatchEvent("#drop", "drop", { dataTransfer: dt });
	await page.waitForSelector("body[data-state=done]", { timeout: 120000 });
	result.dropStatus = await page.textContent("#status");
	result.dropRows = await page.locator("#procs tbody tr").count();
	console.log(JSON.stringify(result));
} finally {
	await browser.close();
}
