// A time chart on uPlot with the navigation users of Perfetto expect:
// drag to zoom into a range, the wheel to zoom around the cursor, shift +
// wheel or a horizontal wheel to pan, W/S to zoom and A/D to pan from the
// keyboard, double click to see everything. The legend follows the
// cursor with each series' exact value. Charts in one XGroup share their
// time axis: zooming or panning one moves the others.
import uPlot from "uplot";

// XGroup links the x scales of charts on one time axis.
export class XGroup {
	constructor() { this.charts = new Set(); this.busy = false; }
	// follow sets every chart's x range to u's.
	follow(u) {
		if (this.busy || !this.charts.has(u)) return;
		const { min, max } = u.scales.x;
		if (min == null) return;
		this.busy = true;
		try {
			for (const o of this.charts) {
				if (o !== u && (o.scales.x.min !== min || o.scales.x.max !== max)) o.setScale("x", { min, max });
			}
		} finally { this.busy = false; }
	}
	// span sets every chart's x range to the union of their data's (a
	// chart already showing it is not drawn again).
	span() {
		let lo = Infinity, hi = -Infinity;
		for (const u of this.charts) {
			const x = u.data[0];
			if (x.length) { lo = Math.min(lo, x[0]); hi = Math.max(hi, x[x.length - 1]); }
		}
		const r = spanOf(lo, hi);
		if (!r) return;
		this.busy = true;
		try {
			for (const u of this.charts) if (u.scales.x.min !== r[0] || u.scales.x.max !== r[1]) u.setScale("x", { min: r[0], max: r[1] });
		} finally { this.busy = false; }
	}
	get size() { return this.charts.size; }
}

// spanOf is the x range of data from lo to hi: none if there is none, a
// second either side of a single time.
export function spanOf(lo, hi) {
	if (!(lo <= hi)) return null;
	return lo === hi ? [lo - 1, hi + 1] : [lo, hi];
}

export const PALETTE = ["#2563eb", "#dc2626", "#16a34a", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#4b5563",
	"#65a30d", "#9333ea"];

function navigation() {
	return {
		hooks: {
			ready(u) {
				const over = u.over;
				over.addEventListener("wheel", (e) => {
					e.preventDefault();
					const { min, max } = u.scales.x;
					if (min == null) return;
					const span = max - min;
					if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
						const d = (e.shiftKey ? e.deltaY : e.deltaX) / over.clientWidth * span;
						u.setScale("x", { min: min + d, max: max + d });
						return;
					}
					const at = u.posToVal(e.offsetX, "x");
					const f = e.deltaY < 0 ? 0.8 : 1.25;
					u.setScale("x", { min: at - (at - min) * f, max: at + (max - at) * f });
				}, { passive: false });
				over.tabIndex = 0;
				over.addEventListener("keydown", (e) => {
					const { min, max } = u.scales.x;
					if (min == null) return;
					const span = max - min, mid = (min + max) / 2;
					const k = e.key.toLowerCase();
					if (k === "w") u.setScale("x", { min: mid - span * 0.4, max: mid + span * 0.4 });
					else if (k === "s") u.setScale("x", { min: mid - span * 0.625, max: mid + span * 0.625 });
					else if (k === "a") u.setScale("x", { min: min - span * 0.2, max: max - span * 0.2 });
					else if (k === "d") u.setScale("x", { min: min + span * 0.2, max: max + span * 0.2 });
					else return;
					e.preventDefault();
				});
			},
		},
	};
}

// si writes an axis number short: 1.5k, 2.4M, 4.3G.
function si(v) {
	const a = Math.abs(v);
	for (const [div, suf] of [[1e12, "T"], [1e9, "G"], [1e6, "M"], [1e4, "k"]]) {
		if (a >= div) return +(v / div).toPrecision(3) + suf;
	}
	return String(+v.toPrecision(4));
}

// timeChart draws series (each {label, stroke, dash?, width?}) over data
// in el, replacing the chart el had; sync names the cursor group shared by
// the page's charts; opt may name the axes (x, y), ask for points on the
// lines (a short series), give the legend's value text (value(v)), a
// height, an XGroup to join, and the x range to show first ([min, max]:
// the group's, so that its span() need not draw the chart again).
export function timeChart(el, title, series, data, sync, opt = {}) {
	const width = Math.max(400, el.clientWidth || 1000);
	const group = opt.group;
	const value = opt.value || String;
	if (el._chart) {
		if (group) group.charts.delete(el._chart);
		el._chart.destroy();
		el._chart = null;
	}
	const opts = {
		title, width, height: opt.height || 280,
		cursor: { sync: { key: sync }, drag: { x: true, y: false } },
		scales: { x: { time: false } },
		axes: [{ label: opt.x || "capture time (s of ECU uptime)" }, { label: opt.y || "‰", size: 70, values: (u, vals) => vals.map(si) }],
		series: [
			{ label: "time", value: (u, v) => (v == null ? "–" : v.toFixed(4) + " s") },
			...series.map((s) => ({
				label: s.label, stroke: s.stroke, width: s.width || 1.5, dash: s.dash, spanGaps: false,
				points: { show: !!opt.points }, value: (u, v) => (v == null ? "–" : value(v)),
			})),
		],
		plugins: [navigation()],
		hooks: { setScale: [(u, key) => { if (key === "x" && group) group.follow(u); }] },
	};
	el.replaceChildren();
	const u = new uPlot(opts, data, el);
	// Set before uPlot's first draw, in the same microtask: drawn once.
	if (opt.range) u.setScale("x", { min: opt.range[0], max: opt.range[1] });
	el._chart = u;
	if (group) group.charts.add(u);
	return u;
}
