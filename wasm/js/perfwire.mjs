// The fast path to perfwire's GOOS=js module: the functions of the
// perfwire object, under the same names and with the same results, built
// over the module's wasm exports (wasm/ABI.md) instead of syscall/js.
// A syscall/js call resumes Go's event loop and costs 10 µs or more; an
// export is a plain WebAssembly call, and the bytes cross through the
// module's memory: alloc a buffer, write the input at buf_ptr, call, read
// the result at buf_ptr/buf_len, free both.
//
//   const go = new Go();
//   const { instance } = await WebAssembly.instantiate(bytes, go.importObject);
//   go.run(instance);                       // installs globalThis.perfwire
//   const pw = bindExports(instance, globalThis.perfwire);
//   pw.kpiDecode(uint8Array, 0);            // as perfwire.kpiDecode
//
// With { views: true } the results are views of the module's memory
// instead of copies: valid only until the next call of any function of
// the module (which may reuse the bytes, or grow the memory and leave
// the view empty), for a host that reads each result at once, as the
// viewer's worker reads the KPI steps. No copy of each result: V8
// allocates each new ArrayBuffer of a large result fresh (150-380 µs for
// 160 KB on a busy host), a quarter to a third of Node's time on the
// throughput workloads.
//
// Every i32 the exports return is a u32, read with >>> 0 (JavaScript
// sees wasm's i32 as signed). An argument that is not what the export takes (not a Uint8Array, a
// number out of u32 range) goes to the syscall/js function, which answers
// with the same error result as ever.

const isU32 = (n) => n === undefined || (typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= 0xffffffff);

export function bindExports(instance, perfwire, { views = false } = {}) {
	const ex = instance.exports;
	const bytes = () => new Uint8Array(ex.mem.buffer);
	// put copies u8 into a new module buffer and returns its handle, 0 if
	// the module refused the size.
	const put = (u8) => {
		const h = ex.alloc(u8.length) >>> 0;
		if (h !== 0) bytes().set(u8, ex.buf_ptr(h) >>> 0);
		return h;
	};
	// take copies result buffer h out of the module and frees it. A new
	// array set from a view of the memory: V8's slice of a view of wasm
	// memory copied 160 KB five times slower.
	const take = (h) => {
		const n = ex.buf_len(h) >>> 0;
		const view = new Uint8Array(ex.mem.buffer, ex.buf_ptr(h) >>> 0, n);
		// Freed, the buffer's bytes stay until the module's next call.
		const out = views ? view : new Uint8Array(n);
		if (!views) out.set(view);
		ex.free(h);
		return out;
	};
	const close = (h) => (isU32(h) ? ex.free(h ?? 0) : perfwire.close(h));
	const pw = { abiVersion: perfwire.abiVersion, close, kpiClose: close };
	for (const { js, wasm, args } of perfwire.exports) {
		const f = ex[wasm];
		const slow = perfwire[js];
		switch (args) {
			case "in":
			case "in,n":
				pw[js] = (a, n) => {
					if (!(a instanceof Uint8Array) || !isU32(n)) return slow(a, n);
					const h = put(a);
					if (h === 0) return slow(a, n);
					const r = f(h, n ?? 0) >>> 0;
					ex.free(h);
					return take(r);
				};
				break;
			case "in:open":
				pw[js] = (a) => {
					if (!(a instanceof Uint8Array)) return slow(a);
					const h = put(a);
					if (h === 0) return slow(a);
					const s = f(h) >>> 0; // the session keeps what it needs of the input
					ex.free(h);
					return s;
				};
				break;
			case "n:open":
				pw[js] = (n) => (isU32(n) ? f(n ?? 0) >>> 0 : slow(n));
				break;
			case "session":
			case "session,n":
				pw[js] = (s, n) => (isU32(s) && isU32(n) ? take(f(s ?? 0, n ?? 0) >>> 0) : slow(s, n));
				break;
			case "session,in":
				pw[js] = (s, a) => {
					if (!isU32(s) || !(a instanceof Uint8Array)) return slow(s, a);
					const h = put(a);
					if (h === 0) return slow(s, a);
					const r = f(s ?? 0, h) >>> 0;
					ex.free(h);
					return take(r);
				};
				break;
			default:
				throw new Error(`perfwire.mjs: unknown argument kind ${args} of ${js}`);
		}
	}
	return pw;
}
