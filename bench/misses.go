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
		"and multi-word results (Value: 7 words, Atom+error: 7 words) are spilled to the stack and zeroed; " +
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
		"Next step (eventrec owner): let Unpacker.Unpack validate while it unpacks (one pass) and measure " +
		"on a 100-record array, where per-record work dominates.",
	"labels-parse": "See the profile: the parser's per-byte loop dominates. Next step: compare with the " +
		"labels package's own BenchmarkParse to see whether index sorting or canonical output costs most.",
	"labels-merge": "The ratio is taken for labels.MergeTexts, the drop-in for pmMergeLabels: it parses " +
		"each text into fresh Sets (81 allocations, 3.6 KB per call), and the garbage collector's work " +
		"shows in the profile (mallocgc, memclr, gcBgMarkWorker). Parsing into reused Sets and calling " +
		"labels.Merge (second row) allocates nothing and is far ahead of libpcp. Next step (labels " +
		"owner): keep a scratch []Set in the destination Set so MergeTexts reuses it.",
	"fetch": "A fetch is a loopback round trip through pmcd and the sample PMDA; the client's own CPU per " +
		"fetch (CPU median column) is a small part of the wall time, so the wall-time ratio mostly " +
		"measures pmcd and the scheduler of this shared 2-core machine. Compare the CPU medians for the " +
		"client cost. Next step: run on an idle machine with more rounds (-rounds 31) before concluding.",
	"kpi": "See the profile: the dataset scanner's field parsing dominates. Next step: compare " +
		"dltkpi's own BenchmarkParseACT50 with this real-capture mix (IRQ and NEW datasets included).",
	"dlt": "See the profile. Next step: check whether dlt.Reader's refills (read size) dominate.",
	"mmv": "Both perfwire's Slot.Add and mmv_inc_value are a load and a store on the mapped value; at " +
		"~2–3 ns the difference is the bounds check and the byte-order test of the Slot against the " +
		"switch on the metric type in libpcp_mmv, and is within the run-to-run spread on this machine. " +
		"Next step (mmv owner): a Counter type fixed to native-order U64 whose Add is one inlinable " +
		"add on a *uint64-sized window.",
}
