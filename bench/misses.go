package main

// misses explains, per figure, why perfwire misses its goal. The report
// prints an entry only when the run misses the goal, after the figure's
// tables and notes and before the CPU profile taken in that run, so an
// entry says what the figure measures, the cause the profile or a floor
// row shows, and what is known not to help, stated as facts about the
// code as it is: the run's own figures are in the tables above it, and
// history (dates, commits, old runs' figures) belongs in commit messages
// (internal/doccheck checks the figure texts for it). The text comes
// from reading such profiles (go tool pprof -list/-disasm on
// bench/profiles/<id>.pprof) and is revised when the code changes.
var misses = map[string]string{
	"result": "One operation decodes the whole RESULT and reads each of its 1,000 values. The lower-bound row " +
		"(ParseResult, then a hand walk of the validated bytes: not an API) is the most this design reaches; the rows " +
		"above it differ from it by the API's cost per value. pduwire.Value and pcp.Atom are 32 bytes, the most the " +
		"Go compiler passes in registers: larger, every call taking or returning one copies it through memory. The " +
		"Extract row pays a call per value: pcp.Extract does not inline (`go build -gcflags=-m ./pcp`). In the " +
		"profile the time is spread over the block checks (tiling.add: the block header's load feeding the " +
		"fixed-size test), the value walk and the consumer's reads, with no single hot spot; libpcp mallocs per PDU " +
		"(its allocation column) and copies every string but runs one tight loop per value set, and its time, the " +
		"ratio's denominator, moves with the machine's load. Known not to help: extracting a whole value set per " +
		"call into a caller's []pcp.Atom (no faster than a call per value); checking value by value, with a " +
		"NextValue scanner or a set decoded into a caller's []Value (slower: the per-value call does not inline, and " +
		"the per-set check never touches insitu values, half of this PDU's); a constant table for tiling.add's " +
		"fixed-size test.",
	"result-highres": "The same decode and reads as the result figure, on HIGHRES_RESULT PDUs (only the header " +
		"differs), so the same cause.",
	"events": "The four arrays are tiny (8–96 bytes, 1–3 records each), so the operation is mostly fixed cost: " +
		"four UnpackBytes calls, each checking its array as it unpacks it; libpcp's cost is its mallocs and frees " +
		"(its allocation column). The events-100 figure, where the per-record work dominates, measures the cost " +
		"per record.",
	"events-100": "One EVENT array of 100 records: the per-record work of UnpackBytes (see the profile), without " +
		"the fixed costs of the small arrays of the events figure.",
	"labels-parse": "One parse of a 10-label set into a reused Set, against libpcp's parser, which allocates (its " +
		"allocation column). The profile shows the parser's per-byte loop; the labels package's BenchmarkParse " +
		"measures it alone, to tell whether index sorting or canonical output costs most.",
	"labels-merge": "The ratio is taken for labels.MergeTexts, the drop-in for pmMergeLabels: it parses each text " +
		"into a new Set per call (its allocation column), and the garbage collector's work shows in the profile " +
		"(mallocgc, memclr, gcBgMarkWorker). Parsing into reused Sets and calling labels.Merge (the second row) " +
		"allocates nothing; scratch Sets kept in the destination Set would let MergeTexts do the same.",
	"fetch": "A fetch is a loopback round trip through pmcd and the sample PMDA, which every client waits for " +
		"alike: the wall medians are mostly pmcd's, so the wall ratio of two clients sits near 1 and the machine's " +
		"load moves a single run to either side of it (see min/max). The client CPU column is steadier, and the " +
		"fetch-client figure measures the client alone, against a fake pmcd. No change in the client moves the " +
		"wall ratio much while the client's CPU is a small part of the round trip; more interleaved rounds " +
		"(-rounds 31) give a steadier median.",
	"fetch-client": "What the floor rows are: the transport floor is the least any client over that socket spends " +
		"(the loopback stack, waking the fake pmcd, the client's own sleep and wake-up in the kernel); libpcp makes " +
		"five system calls where it makes two (sendto, then pselect and recvfrom for the header and again for the " +
		"body) and mallocs per pmResult (its allocation column). pmapi's blocking client makes the floor's two " +
		"(write, read: `strace -f -c` counts 1 and 1 per fetch). Of its time above the transport floor, the decode " +
		"row is the parse and the caller's walk of the reply; the rest is the Go runtime around two blocking system " +
		"calls and the client itself (lock, request PDU, the timeout's timer). Options.BlockingIO works on a " +
		"duplicate of the socket's descriptor that Go's network poller does not watch (a watched socket wakes a " +
		"thread waiting in epoll_pwait at every reply), and a blocking client yields its processor every 2 ms (a " +
		"goroutine that only waits in system calls never passes the scheduler, so the runtime's monitor would " +
		"preempt it and then poll every 20 µs). The default client pays for parking in the poller: a read that " +
		"returns EAGAIN, epoll_pwait, and the runtime's monitor woken at each write " +
		"(runtime.entersyscallWakeSysmon). Over TCP no client change reaches the goal while the floor rows sum " +
		"above it; over the unix socket a cheaper walk of a validated result narrows the gap.",
	"kpi": "One parse of every KPI payload of a real capture, against a naive strings.Split parser that " +
		"allocates per field (its allocation column); Go's allocator is fast at these sizes, so those allocations " +
		"alone do not make a 5x gap. The time is in DatasetScanner.Next and Dataset.parse (see the profile): ACT " +
		"datasets go through parseACT's fast path and IRQ entries through one call-free loop, while an IRQ entry " +
		"that loop cannot vouch for is checked again by irqEntry and field, calls that do not inline. dltkpi's " +
		"BenchmarkParseACT50 measures the ACT path alone.",
	"dlt": "One scan of the file from the page cache: the dlt.Reader row reads it through refills of its " +
		"buffer, the dlt.Scanner row walks the same bytes in memory, so their difference is the reads; dlt-convert " +
		"runs as a process, its start-up included (the empty-file row). See the profile for where dlt.Reader's " +
		"time goes.",
	"mmv": "Slot.Add's counter path inlines to one load, add and store on the mapped word " +
		"(`go build -gcflags=-m ./mmv`: can inline Slot.Add), while mmv_inc_value is a PLT call plus a " +
		"switch on the type; at a few ns per update a miss here is run-to-run spread on this shared machine " +
		"(compare min/max). Both beat a plain atomic add because neither is atomic (MMV expects one writer " +
		"per value). A run with -rounds 31, or perf stat on an idle machine, tells spread from cause.",
	"viewer": "One load of a dlt-kpi capture in headless Chromium, from choosing the file to its chart and tables " +
		"drawn. A 100 MB load is mostly the worker's decode (kpi_feed in the module, reading the steps into typed " +
		"columns, the file's reads into two reused buffers), then the table and the three charts in view on the " +
		"page's thread, mostly code that runs once per load and so unoptimised by V8; the charts below the fold " +
		"are drawn when scrolled near. On two cores the page's work during a load takes the time of V8's compiler " +
		"threads, which optimise the module's hot functions, so one load varies with the host's other work (each " +
		"load's time is in the table) and a run near the goal's edge can miss it. What would help: a columnar KPI " +
		"step written by the module.",
	"plugin-kpi": "What it measures: one kpi_decode call over a 156 KB dlt-kpi capture (kpi-odd.dlt), the DLT scan, " +
		"each message's dlt-kpi datasets parsed and written as MessagePack in place, in Node against the same call in " +
		"native Go. The floor rows run the decoder alone (dlt.Scanner, dltkpi's FromDLT and every dataset read, no " +
		"output) in Node and natively; their ratio, and the call's render part beside it, are this run's (the floor rows). " +
		pluginRule,
	"plugin-pdu": "What it measures: one pdu_decode call over a 1 KB pmcd conversation (every PDU in full), a per-call " +
		"figure under 10 µs natively. Its floor is the decoder alone with its boundary (the input copied in, one " +
		"export): the PDU scanner and each body decoded (a RESULT's values walked, the other types unmarshalled), " +
		"in Node against native Go (the floor rows); the boundary alone row shows the crossing itself is a small part. " + pluginRule,
	"plugin-mmv": "What it measures: one mmv_read call over a 5.7 KB MMV file, a per-call figure under 10 µs natively. " +
		"Its floor is the decoder alone with its boundary: mmv.Parse's validation and every entry and value read, " +
		"in Node against native Go (the floor rows); the goal's throughput on MMV files is plugin-mmv-large's. " + pluginRule,
	"plugin-feed": "What it measures: one pdu_feed of a 312-byte HIGHRES_RESULT to an open PDU stream session, the " +
		"smallest useful call. Its floor is the decoder alone with its boundary (the PDU scanned and parsed, its " +
		"values read) in Node against native Go (the floor rows); the boundary alone row shows the crossing into the module is not " +
		"the cost. " + pluginRule,
	"plugin-stream": "What it measures: a 1 MiB stream of recorded RESULTs and HIGHRES_RESULTs (pmcd's captures and " +
		"libpcp's 1,000-value RESULTs) fed to a PDU stream session in 64 KB pieces, as the viewer feeds a socket or " +
		"a file, and about 2.7 MB of MessagePack read in place. The floor rows run the decoder alone (the PDU " +
		"scanner, pduwire.ParseResult and every value read) in Node and natively, and render's part (most bytes of " +
		"the result: keys and numbers written value by value) beside it; both ratios are this run's (the floor rows). " +
		pluginRule,
	"plugin-mmv-large": "What it measures: one mmv_read call over a 662 KB MMV file (PCP QA's large-parfait laid out " +
		"again by mmv.Registry: 422 metrics, 432 instances, 11,422 values, about 1 MB of MessagePack out). The floor " +
		"rows run the decoder alone (mmv.Parse's validation, then every metric, indom, instance, label and value " +
		"read) in Node and natively, and render's part beside it; both ratios are this run's (the floor rows). " + pluginRule,
	"pmda": "The fetch rate is pmcd's and the loopback's more than either PMDA's: the CPU split note shows pmcd's " +
		"CPU per fetch beside each PMDA's, so the wall ratio sits near 1 and moves with the machine's load from run " +
		"to run. The CPU median column and the allocation note are the steadier comparison. Both PMDAs serve the " +
		"same values (the checksum note); the Go PMDA's RESULTs go through pduwire's ResultPDU.Append.",
}
