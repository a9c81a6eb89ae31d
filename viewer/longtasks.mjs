// The longest main-thread task of a load, for bench.mjs and e2e.mjs: a
// long-task observer set up before the page's own scripts records every
// task over 50 ms; a load counts those that started after it did (the
// observer reports a task a while after it ends).

// watch sets the observer up in page, before it is opened.
export const watch = (page) => page.addInitScript(() => {
	window.__tasks = [];
	new PerformanceObserver((l) => {
		for (const e of l.getEntries()) window.__tasks.push([e.startTime, e.duration]);
	}).observe({ type: "longtask", buffered: true });
});

// start starts a load's window: the tasks that start from now on count.
export const start = (page) => page.evaluate(() => { window.__from = performance.now(); });

// longest is the longest task in ms since start (0: none over 50 ms),
// once the observer has had time to report the last.
export async function longest(page) {
	await page.waitForTimeout(100);
	return page.evaluate(() => Math.max(0, ...window.__tasks.filter(([at]) => at >= window.__from).map(([, ms]) => ms)));
}
