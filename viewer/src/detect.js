// Recognises a capture from its first bytes, so the viewer can say what a
// file is before it decodes it, and say so clearly when it cannot show it.
// The magics are those of docs/dlt-framing.md, docs/pcp-mmv.md,
// docs/pcp-archive.md and docs/pcp-pdu.md.

const be32 = (b, o) => ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;
const hex = (b) => [...b.subarray(0, 8)].map((x) => x.toString(16).padStart(2, "0")).join(" ");

// detect returns {name, view, framing, message}: view "kpi" for DLT data
// (framing as kpiStream takes it), "mmv" or "pdu" for the PCP formats the
// viewer shows, "archive" for a file of a PCP archive (its label), ""
// otherwise, with message saying why.
export function detect(b) {
	const tag = String.fromCharCode(...b.subarray(0, 4));
	if (tag === "DLT\x01") return { name: "dlt", view: "kpi", framing: 0 };
	if (tag === "DLS\x01") return { name: "dlt-serial", view: "kpi", framing: 1 };
	if (tag === "MMV\x00") return { name: "MMV file", view: "mmv" };
	if (b.length >= 8) {
		const w0 = be32(b, 0), w1 = be32(b, 4);
		if ((w0 === 132 && w1 === 0x50052602) || (w0 === 808 && w1 === 0x50052603)) return { name: "PCP archive", view: "archive" };
		if (w0 >= 12 && w0 <= 64 << 20 && w1 >= 0x7000 && w1 <= 0x7017) return { name: "PCP PDU stream", view: "pdu" };
	}
	if (b.length === 0) return { name: "", view: "", message: "the file is empty" };
	return { name: "", view: "", message: `not a format perfwire's viewer knows: it starts with ${hex(b)} (a DLT file starts with "DLT" 01)` };
}
