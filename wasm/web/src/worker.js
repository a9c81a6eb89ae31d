// Decodes a capture off the main thread: loads perfwire's js/wasm module,
// opens a KPI session over the file's bytes and steps it, posting progress,
// CPU samples and process-table snapshots as it goes.
importScripts("wasm_exec.js", "msgpack.min.js");

const { decode } = MessagePack;
let ready = null;

function load() {
	if (!ready) {
		ready = (async () => {
			const go = new Go();
			const { instance } = await WebAssembly.instantiateStreaming(fetch("perfwire.wasm"), go.importObject);
			go.run(instance); // main installs self.perfwire and waits for calls
			if (self.perfwire.abiVersion !== 2) throw new Error("unexpected ABI " + self.perfwire.abiVersion);
			return self.perfwire;
		})();
	}
	return ready;
}

// STEP is the number of DLT messages per step; every step also sends the
// table, so that the page can name short-lived processes in the chart.
const STEP = 25;

self.onmessage = async (e) => {
	try {
		const pw = await load();
		const s = pw.kpiOpen(new Uint8Array(e.data.buffer));
		for (;;) {
			const st = decode(pw.kpiStep(s, STEP));
			const done = st.done;
			const table = decode(pw.kpiTable(s));
			self.postMessage({ type: "progress", offset: st.offset, total: st.total, messages: st.messages, samples: st.samples, table, done, error: st.error });
			if (done) break;
			await new Promise((r) => setTimeout(r, 0)); // let the worker breathe
		}
		pw.kpiClose(s);
	} catch (err) {
		self.postMessage({ type: "error", message: String(err && err.message || err) });
	}
};
