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
	"plugin-kpi": "One call decodes the 156 KB capture (kpi-odd.dlt). Since 80c1d3b (2026-11-27) it writes its " +
		"MessagePack in place (abi.AppendKPIMessages) instead of building a KPIMessage, its datasets and their " +
		"strings and marshalling them, which took 40% of a Node call in allocations, copies and write " +
		"barriers: Node went from 3.6-3.95 ms to 1.17 ms, but native Go runs the same call and gained as much " +
		"(0.95-1.19 ms -> 0.30 ms, 9043 -> 36 allocations), so the ratio went from 0.26-0.33x to 0.25x. Later " +
		"on 2026-11-27 (a7e9edb-8bb9fbd) fewer calls per dataset: dltkpi's parse decodes STP, NEW and CHK " +
		"itself, digits folded into field, and one appendKPIDataset writes every dataset but a well-formed ACT " +
		"(the header, pid and ppid as 64-bit constant stores, the text copied a word at a time while checking " +
		"for non-ASCII; a CHK dataset had cost 5 calls, an IRQ dataset 14), each message's head as word " +
		"stores: interleaved on a loaded host, Node's CPU per call 1.34-1.36 -> 1.01-1.03 ms, native Go's " +
		"0.60-0.72 -> 0.53-0.64 ms: removing calls speeds native Go almost as much. Since 159ed11 native Go " +
		"no longer hashes each result in its timed runs (Node's side never did; the hash was about a tenth of " +
		"a native call), so the same code gives 0.25x on a quiet host (Node 0.83-0.88 ms, native 0.21-0.23 " +
		"ms; runs of 0.25, 0.26 and 0.25x, 0.31x in a loaded one). What is left, by Node's profile: " +
		"appendKPIDataset 24%, nextInto and parse 19%, the per-message DLT path 12% (FromDLT -> SourceOf -> " +
		"the dlt package's IDs, SessionID and Timestamp, each a call), Parser.Parse 7%, appendKPIMessage 8%: " +
		"Go's WebAssembly code doing the per-dataset work about 4x slower than amd64. Tried without gain: " +
		"parse merged into nextInto, an ASCII byte loop before utf8.Valid, the text's last word as an " +
		"overlapping 8-byte store. See plugin-stream and plugin-mmv-large for the throughput of the other " +
		"formats, plugin-feed for the smallest calls." +
		" Build options tried on 2026-12-07 (bench_node.mjs CPU time, old and new interleaved, 3 runs each): GOWASM=satconv,signext changed neither speed nor size; profile-guided optimisation (`go run . -pgo FILE` writes the native profile of the three throughput calls; the module built with -pgo) sped Node by about 5 % on kpi, 7 % on stream and 18 % on mmv-large at load 8-9, short of the 25-35 % the goal needs, and grew perfwire-js.wasm by 20 KB gzip -9 over its 250 KB budget (a profile of one call alone: 4.6-6.4 KB), so no module is built with it.",
	"plugin-pdu": "A per-call figure: one pmcd conversation of 1 KB, 9 µs natively since 2026-11-27 (17 µs before), " +
		"so a call's fixed cost in Node (alloc, write, call, read, free: about 2 µs) and Go's wasm code running " +
		"several times slower than native are the whole figure. The goal's throughput on RESULT streams is " +
		"plugin-stream's; see plugin-feed for what changed.",
	"plugin-mmv": "A per-call figure: the 5.7 KB MMV file is read natively in 3 µs since 2026-11-27 (5 µs before), " +
		"about the fixed cost of a call in Node. The goal's throughput on MMV files is plugin-mmv-large's.",
	"plugin-feed": "The per-call overhead: one 312-byte HIGHRES_RESULT (two event arrays) per call. On 2026-11-27 the " +
		"calls stopped building Go values before marshalling (abi.AppendPDUs, PDUSession.AppendFeed, " +
		"AppendMMV, AppendEvents write the MessagePack in place; the module recycles the buffers the host " +
		"frees): this feed went from 63 allocations to none natively (4-7 -> 1.7 µs) and from 25-50 to 8-10 " +
		"µs in Node, and the collector all but left Node's profile. Both sides gained, native Go more in " +
		"proportion, so the ratio stays at 0.15-0.22x. What remains is Go's WebAssembly code itself: 5-8 " +
		"times slower than native on this byte-by-byte encoding (every call spills to Go's stack in linear " +
		"memory, bounds checks stay). Exports cost 50-70 ns each in Node (the crossing is not the cost); " +
		"since 2026-11-27 Node's host reads each result in place (perfwire.mjs's views), which moved this " +
		"per-call figure little.",
	"plugin-stream": "The goal's RESULT-stream throughput, as the viewer feeds a socket or a file: 1 MiB of recorded " +
		"RESULTs and HIGHRES_RESULTs (pmcd's captures and libpcp's 1,000-value RESULTs, 2.7 MB of MessagePack " +
		"out) in 64 KB pieces, a session per pass. Before 2026-11-27 (Node's process CPU time, busy host): " +
		"native 15 ms, Node 65 ms (0.24x), 123,000 allocations per pass; with the results written in place: " +
		"native 1.8-2.4 ms, Node 8.9-11.5 ms (0.21x), 20 allocations; results read in the module's memory " +
		"(views): Node 6.2-7.4 ms, 0.25-0.29x; the values written with fewer calls: Node 4.9-5.4 ms, native " +
		"1.40-1.50 ms, 0.27-0.29x. Then at the goal's edge, after changes that cut Node's time more than " +
		"native Go's: DPTR blocks read from the PDU without a Value per block (pduwire's ValueSet.PDU), " +
		"number.go's integer and string appends instead of msgp's, PMIDs' digits without strconv: " +
		"interleaved, Node 5.3-5.5 -> 4.0-4.3 ms, native 1.30 -> 1.08 ms (BenchmarkAppendFeedStream); three " +
		"harness runs at 26f065d gave 0.30, 0.30 and 0.31x, one at fd28049 0.297x. At 0618628, after the " +
		"evening's size cuts (appendPayload's value forms through one appendForm here), Node 4.05-4.13 ms " +
		"and native 1.20 ms on a quiet host gave 0.296 and 0.29x (spliced: the first), 0.31x in a loaded " +
		"run; Node's time unchanged by the cuts (4.63-4.91 -> 4.57-4.92 ms interleaved), native Go's a " +
		"little faster. Tried without gain: words read little-endian and swapped (one load instead of eight " +
		"in wasm), int16 forms written inline, the keys stored as constants. Since 159ed11 native Go no " +
		"longer hashes each result in its timed runs (Node's side never did): native 1.08-1.20 -> 0.91-0.99 " +
		"ms, so the same code gives 0.23-0.24x on a quiet host (Node 3.9-4.1 ms; 0.16-0.17x in loaded runs) " +
		"where it gave 0.29-0.30x. The size cuts since 0618628 (appendPayload folded into appendBlock, the " +
		"integers through one appendBE, pduwire's checks folded) moved Node's time within its noise (1-2%)." +
		" Build options tried on 2026-12-07 (bench_node.mjs CPU time, old and new interleaved, 3 runs each): GOWASM=satconv,signext changed neither speed nor size; profile-guided optimisation (`go run . -pgo FILE` writes the native profile of the three throughput calls; the module built with -pgo) sped Node by about 5 % on kpi, 7 % on stream and 18 % on mmv-large at load 8-9, short of the 25-35 % the goal needs, and grew perfwire-js.wasm by 20 KB gzip -9 over its 250 KB budget (a profile of one call alone: 4.6-6.4 KB), so no module is built with it.",
	"plugin-mmv-large": "The goal's MMV throughput: a 662 KB MMV file (PCP QA's large-parfait laid out again by mmv.Registry " +
		"without the one metric mmv_read refuses; 422 metrics, 432 instances, 11,422 values, 1 MB of " +
		"MessagePack out). Before 2026-11-27 (Node's process CPU time, busy host): native 1.7 ms, Node 14.5 " +
		"ms (0.12x); with the result written in place: native 1.0 ms, Node 4.5-5.0 ms (0.20-0.22x), a third " +
		"of it copying the 1 MB result out; read in place (views, since 2026-11-27): Node 3.2 ms, 0.29-0.31x. " +
		"A size cut of 2026-11-27 (b0d0f43: each value's keys appended as strings through appendKeyBytes, a " +
		"memory.copy per key, which costs V8 a call) made Node 10% slower (0.24-0.28x over three runs); " +
		"fd28049 writes them as constant bytes again: 3.22-3.38 -> 2.93-3.07 ms interleaved, 0.31x. At " +
		"0618628, after the evening's size cuts (mmv's reader checks through one fail call per check, its " +
		"TOC read in NewReader), two runs on a quiet host gave 0.298x (spliced) and 0.29x, Node 3.10-3.12 " +
		"ms and native 0.92 ms, 0.34x in a loaded run; interleaved, Node's time moved within its noise " +
		"(2.99-3.21 -> 3.06-3.28 ms, 3.34-5.16 -> 3.27-4.14 ms in two sets). " +
		"Later on 2026-11-27 (9ddff68, a282ede, e42a66a) mmv.Reader.NextValue walks the values taking the " +
		"last value's metric and the next instance when the entry points at them (Reader.Value's lookups, " +
		"index twice and u64 three times, were calls in wasm), NewReader's checkValues keeps them too, nul is " +
		"bytes.IndexByte (a word at a time in wasm) and AppendMMV copies each value's names from where the " +
		"metrics and instances wrote them: interleaved (10 runs each, the quieter half), Node 3.02-3.07 -> " +
		"1.58-1.72 ms; but native Go gained as much (the same lookups and checks; 0.92 -> 0.49 ms), so the " +
		"harness at e42a66a (loaded host) gave Node 1.63 ms against native 0.487 ms, 0.30x (0.29x in a run " +
		"with an uncommitted edit). Measured " +
		"and not taken: each name copied eight bytes at a time instead of by memory.copy (by a helper, a " +
		"call per name, or inline in the loop: slower in Node either way), the instance's indom word read " +
		"inline in checkValues and NextValue's write of the Value's bytes skipped when they are the " +
		"reader's (2.5-4% of Node's profile each, no gain measured). What is left is per value and costs Go's wasm more than native Go: about " +
		"six calls (NextValue, Value.Int, appendInt64, two memory.copy for the names) and the appends' room " +
		"checks, 140 ns per value in Node against 43 natively. Since 159ed11 native Go no longer hashes its 1 " +
		"MB result in each timed run (Node's side never did; about 80 µs of 0.49 ms): native 0.40-0.43 ms, " +
		"Node 1.58-1.63 ms, 0.25-0.26x on a quiet host." +
		" Build options tried on 2026-12-07 (bench_node.mjs CPU time, old and new interleaved, 3 runs each): GOWASM=satconv,signext changed neither speed nor size; profile-guided optimisation (`go run . -pgo FILE` writes the native profile of the three throughput calls; the module built with -pgo) sped Node by about 5 % on kpi, 7 % on stream and 18 % on mmv-large at load 8-9, short of the 25-35 % the goal needs, and grew perfwire-js.wasm by 20 KB gzip -9 over its 250 KB budget (a profile of one call alone: 4.6-6.4 KB), so no module is built with it.",
	"pmda": "The fetch rate is pmcd's and the loopback's more than either PMDA's: the CPU split note shows pmcd's " +
		"CPU per fetch beside each PMDA's, so the wall ratio sits near 1 and moves with the machine's load from run " +
		"to run. The CPU median column and the allocation note are the steadier comparison. Both PMDAs serve the " +
		"same values (the checksum note); the Go PMDA's RESULTs go through pduwire's ResultPDU.Append.",
}
