// text renders raw /proc bytes as `perfwire kpi` prints them: valid UTF-8
// as is with control characters escaped, other bytes as \xNN.
export function text(u8) {
	if (typeof u8 === "string") {
		if (!CONTROL.test(u8)) return u8; // the common case, and fast
		u8 = new TextEncoder().encode(u8);
	}
	let str;
	try { str = new TextDecoder("utf-8", { fatal: true }).decode(u8); } catch { str = null; }
	let s = "";
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

const CONTROL = /[\x00-\x1f\x7f]/;

// bytes formats a byte count for people: 1.5 MB, 640 kB.
export function bytes(n) {
	if (n >= 1e9) return (n / 1e9).toFixed(2) + " GB";
	if (n >= 1e6) return (n / 1e6).toFixed(1) + " MB";
	if (n >= 1e3) return (n / 1e3).toFixed(0) + " kB";
	return Math.round(n) + " B";
}

// secs writes a TMSP count (0.1 ms) as seconds with every digit, as
// perfwire kpi --all does.
export function secs(t) {
	const a = Math.abs(t);
	return (t < 0 ? "-" : "") + Math.trunc(a / 10000) + "." + String(a % 10000).padStart(4, "0");
}
