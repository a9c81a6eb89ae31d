// A sortable, filterable table that draws only the rows in view, so a
// capture with tens of thousands of rows scrolls as fast as one with ten.

export const ROW = 22; // px; fixed so that the visible slice is arithmetic

// Viewport says which part of a scroller is in view without asking the
// layout: reading scrollTop or clientHeight after the page changed forces
// a synchronous layout of the whole page, a long task while charts are
// drawn beside the table. The offset is kept from scroll events and the
// height from a ResizeObserver (both read after a layout); until the
// first report the height is taken as HEIGHT, taller than any table's
// scroller in the style sheet, so that no row in view is left out.
const HEIGHT = 800;
export class Viewport {
	// paint is called when the height observed changes.
	constructor(scroller, paint) {
		this.top = 0;
		this.height = HEIGHT;
		scroller.addEventListener("scroll", () => { this.top = scroller.scrollTop; paint(); });
		new ResizeObserver((es) => {
			const h = es[es.length - 1].contentRect.height;
			if (h > 0 && h !== this.height) { this.height = h; paint(); }
		}).observe(scroller);
	}
	// rows returns the first and the end index of the rows to draw, of n
	// rows ROW px high: those in view and five either side.
	rows(n) {
		return [Math.max(0, Math.floor(this.top / ROW) - 5), Math.min(n, Math.ceil((this.top + this.height) / ROW) + 5)];
	}
}

// columns: [{key, label, num?, cls?, text(row)}]; rows: plain objects.
export class VTable {
	// key names the row field kept on each drawn row as data-KEY (pid by
	// default), so that clicks and tests can tell rows apart.
	constructor(el, columns, { sortKey, desc = false, key = "pid" } = {}) {
		this.key = key;
		this.el = el;
		this.columns = columns;
		this.rows = [];
		this.view = [];
		this.filter = "";
		this.sortKey = sortKey || columns[0].key;
		this.desc = desc;
		this.tree = null; // when set: rows in tree order with depth
		el.classList.add("vtable");
		this.head = document.createElement("div");
		this.head.className = "vrow vhead";
		for (const c of columns) {
			const h = document.createElement("span");
			h.textContent = c.label;
			h.className = (c.cls || "") + (c.num ? " num" : "");
			h.dataset.key = c.key;
			h.title = "sort by " + c.label;
			h.addEventListener("click", () => this.sort(c.key));
			this.head.append(h);
		}
		this.scroller = document.createElement("div");
		this.scroller.className = "vscroll";
		// body is as tall as every row together; only the rows in view are
		// in it, each placed at its own offset.
		this.body = document.createElement("div");
		this.body.className = "vbody";
		this.scroller.append(this.body);
		this.port = new Viewport(this.scroller, () => this.paint());
		el.replaceChildren(this.head, this.scroller);
	}
	setRows(rows) { this.rows = rows; this.refresh(); }
	setFilter(f) { this.filter = f.toLowerCase(); this.refresh(); }
	setTree(tree) { this.tree = tree; this.refresh(); }
	sort(key) {
		if (this.sortKey === key) this.desc = !this.desc; else { this.sortKey = key; this.desc = this.columns.find((c) => c.key === key).num; }
		this.refresh();
	}
	refresh() {
		const k = this.sortKey, sign = this.desc ? -1 : 1;
		let v = this.filter ? this.rows.filter((r) => this.columns.some((c) => String(c.text(r)).toLowerCase().includes(this.filter))) : [...this.rows];
		v.sort((a, b) => {
			const x = a[k], y = b[k];
			return sign * (x < y ? -1 : x > y ? 1 : 0) || (a.pid ?? 0) - (b.pid ?? 0) || (a.start ?? 0) - (b.start ?? 0);
		});
		if (this.tree) v = this.tree(v);
		this.view = v;
		for (const h of this.head.children) h.classList.toggle("sorted", h.dataset.key === k);
		this.body.style.height = v.length * ROW + "px";
		this.paint();
	}
	paint() {
		const [first, last] = this.port.rows(this.view.length);
		const frag = document.createDocumentFragment();
		for (let i = first; i < last; i++) {
			const r = this.view[i], tr = document.createElement("div");
			tr.className = "vrow";
			tr.style.top = i * ROW + "px";
			if (r[this.key] !== undefined) tr.dataset[this.key] = r[this.key];
			for (const c of this.columns) {
				const td = document.createElement("span");
				td.textContent = c.text(r);
				td.className = (c.cls || "") + (c.num ? " num" : "");
				if (c.key === "cmd" && r.depth) td.style.paddingLeft = r.depth * 14 + "px";
				tr.append(td);
			}
			frag.append(tr);
		}
		this.body.replaceChildren(frag);
	}
}

// treeOrder puts each process after its parent (by PPID), depth-first,
// keeping the given order among siblings; orphans are roots. When a pid
// was reused, the parent is the process with that pid that had started
// by the child's start (rows with start and, if they ended, end).
export function treeOrder(rows) {
	const byPid = new Map();
	for (const r of rows) {
		if (!byPid.has(r.pid)) byPid.set(r.pid, []);
		byPid.get(r.pid).push(r);
	}
	const parentOf = (r) => {
		const cands = byPid.get(r.ppid);
		if (!r.ppidKnown || !cands || r.ppid === r.pid) return null;
		let best = null;
		for (const c of cands) if ((c.start ?? 0) <= (r.start ?? 0) && (!best || c.start > best.start)) best = c;
		return best || cands[0];
	};
	const kids = new Map();
	const roots = [];
	for (const r of rows) {
		const p = parentOf(r);
		if (p) {
			if (!kids.has(p)) kids.set(p, []);
			kids.get(p).push(r);
		} else roots.push(r);
	}
	const out = [];
	const walk = (r, depth) => {
		out.push({ ...r, depth });
		for (const k of kids.get(r) || []) walk(k, depth + 1);
	};
	roots.forEach((r) => walk(r, 0));
	return out;
}
