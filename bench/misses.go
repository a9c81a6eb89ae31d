package main

// misses explains, per figure, why perfwire misses its goal and what to
// do next. The report prints an entry only when the run misses the goal,
// followed by the CPU profile taken in that run; the text comes from
// reading such profiles (go tool pprof -list/-disasm on
// bench/profiles/<id>.pprof) and must be revised when the code changes.
var misses = map[string]string{
	"result": "Read the rows top to bottom: ParseResult alone (validation) is a fraction of the total, " +
		"and a hand-written walk over the bytes it validated (the lower-bound row) adds little to it, so " +
		"the time goes to the per-value accessors. `pduwire.ValueSet.Value` and `pcp.Extract` are not " +
		"inlined (over the inlining budget), so each of the 1,000 values pays two calls whose arguments " +
		"and multi-word results are spilled to the stack and zeroed: Atom+error is 7 words, and Value has " +
		"been 11 words since it carries the whole block for Value.Events (29675ba), more than Go's 9 " +
		"integer result registers, so it is now returned through memory (an A/B run against the " +
		"7-word Value showed no difference beyond this machine's noise); " +
		"-disasm shows Value re-slicing the PDU and re-checking bounds that ParseResult already proved, " +
		"and the flat time sits at the call sites, at `return v` and at `switch a.Type()`. The row " +
		"without pcp.Extract shows the conversion alone costs about half. libpcp, although it mallocs " +
		"~106 times per PDU and copies every string, runs one tight loop per value set. " +
		"Next steps (pduwire and pcp owners): an inlinable value scanner over a value set (running " +
		"offset, no per-call re-slicing, block lookup only for pointer formats), and an inlinable " +
		"same-type fast path in pcp.Extract (in == out needs no conversion switch); that reaches the " +
		"lower-bound row at best (under 2x in the runs so far). Beyond it, 2x needs both that walk and " +
		"ParseResult's validation pass (pointer, block and tiling checks per value) to shrink: each is " +
		"about a quarter to a third of libpcp's whole time.",
	"result-highres": "Same code path and same cause as the RESULT figure above (only the header differs).",
	"events": "The arrays are tiny (8–96 bytes, 1–3 records), so the figure is dominated by fixed costs: " +
		"eventrec.Parse validates the whole array before Unpack walks it a second time, and both walks " +
		"go through non-inlined scanner calls; libpcp's cost is its ~28 mallocs and frees per operation. " +
		"The events-100 figure, where per-record work dominates, shows the per-record cost is well " +
		"ahead. Next step (eventrec owner): let Unpacker.Unpack validate while it unpacks (one pass over " +
		"the array instead of two) to cut the fixed cost.",
	"events-100": "See the profile; the fixed costs of the small-array figure matter less here.",
	"labels-parse": "See the profile: the parser's per-byte loop dominates. Next step: compare with the " +
		"labels package's own BenchmarkParse to see whether index sorting or canonical output costs most.",
	"labels-merge": "The ratio is taken for labels.MergeTexts, the drop-in for pmMergeLabels: it parses " +
		"each text into fresh Sets (81 allocations, 3.6 KB per call), and the garbage collector's work " +
		"shows in the profile (mallocgc, memclr, gcBgMarkWorker). Parsing into reused Sets and calling " +
		"labels.Merge (second row) allocates nothing and is far ahead of libpcp. Next step (labels " +
		"owner): keep a scratch []Set in the destination Set so MergeTexts reuses it.",
	"fetch": "A fetch is a loopback round trip through pmcd and the sample PMDA, so wall times are noisy " +
		"on this shared machine (see min/max and the quick runs, where the ratio swings either way); the " +
		"client CPU column is steadier and shows pmapi spending more process CPU per fetch than libpcp. " +
		"The profile is almost all syscalls and futex. `strace -f -c` over 1,000 fetches (2 metrics, " +
		"2026-11-22) counts 5.3–7.8 syscalls per fetch for pmapi depending on load (read 2.4–2.9, of which " +
		"0.4–0.9 return EAGAIN; epoll_pwait 0.8–1.8; write 1; nanosleep 0.4–1; futex 0.2–0.6) against a " +
		"steady 5.2 for libpcp (pselect6 2, recvfrom 2, sendto 1): when the reply is not there yet, Go's " +
		"netpoller parks the goroutine and another thread wakes it (epoll, futex, scheduler spinning), and " +
		"pduwire.Reader reads the 12-byte header and the body with separate reads. Next steps " +
		"(pmapi/pduwire owners): read header and body together when the buffer allows, and try a " +
		"blocking read through syscall.RawConn on the client's connection so a waiting client costs no " +
		"poller round trip; then re-run with -rounds 31 on a quiet machine.",
	"kpi": "The ratio sits around the 5x line (4.3–5.2x over the full runs so far). The profile: " +
		"DatasetScanner.Next and Dataset.parse take most of the time, and on this capture's mix the IRQ " +
		"datasets go through irqEntry → field → digits, three non-inlined calls per cpuN:count entry, " +
		"while ACT has a dedicated fast path (parseACT). The naive baseline pays 10,000 allocations per " +
		"operation, but Go's allocator is fast at these sizes. Next step (dltkpi owner): a single-loop " +
		"fast path for IRQ entries like parseACT's, then check BenchmarkParseACT50 against this mix.",
	"dlt": "See the profile. Next step: check whether dlt.Reader's refills (read size) dominate.",
	"mmv": "Slot.Add's counter fast path inlines to one load, add and store on the mapped word " +
		"(`go build -gcflags=-m ./mmv`: can inline Slot.Add), while mmv_inc_value is a PLT call plus a " +
		"switch on the type; at 1–3 ns per update a miss here is run-to-run spread on this shared machine " +
		"(compare min/max). Both beat a plain atomic add because neither is atomic (MMV expects one writer " +
		"per value). Next step: re-run with -rounds 31; if it persists, profile with perf stat on an idle " +
		"machine.",
	"wasm": "Not reachable while one module carries every call the issue requires: the decoders themselves " +
		"are the cost, not stray dependencies (the per-package table has no fmt, reflect, strconv or unicode rows: " +
		"msgp already links them into the baseline). Go's wasm backend emits about twice the code of amd64 " +
		"for the same functions (every call site is a resume point that spills the live values), and the data " +
		"section grows with the code (pclntab: every function's name and pc tables, plus type descriptors), " +
		"so each KB of function body costs about 1.45 KB of module. Built alone (the calls-alone table above), " +
		"the KPI calls add over 300 KB (dltkpi's reassembler and tracker, the DLT scanner, their result types), " +
		"pdu_decode and mmv_read about 200 KB each (a decoder per PDU type; the MMV reader and its validation of " +
		"every section), labels about 125 KB (JSONB parser, canonicaliser, merge), events_decode about 90 KB: the " +
		"KPI calls alone nearly fill the budget, which the viewer's kpionly module does meet. The msgp code generated for the 24 result " +
		"types is about 90 KB of wasm/abi; msgp has no option that makes it smaller (rewriting its byte-by-byte " +
		"key appends as string appends made the module 17 KB larger). Cut so far: mmv_read no longer carries the " +
		"mmvdump text formatter (ABI 2: -41 KB), PDU bodies decode into concrete types so that pduwire.Message " +
		"no longer keeps pcp's String methods alive (-39 KB), and the exports share one dispatch switch (-9 KB). " +
		"Next steps: dltkpi's Processes and IRQs sort the pids (as []int, whose sort the baseline already has) " +
		"and the names, then copy the rows in that order, instead of sorting whole Process and IRQRate structs: " +
		"that removes the two struct-shaped sort instantiations in the slices rows (-33 KB measured, dltkpi's " +
		"tests green; dltkpi owner); beyond that the goal needs the calls split into per-format modules, as kpionly does " +
		"for the viewer.",
}
