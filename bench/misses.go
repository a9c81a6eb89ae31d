package main

// misses explains, per figure, why perfwire misses its goal and what to
// do next. The report prints an entry only when the run misses the goal,
// followed by the CPU profile taken in that run; the text comes from
// reading such profiles (go tool pprof -list/-disasm on
// bench/profiles/<id>.pprof) and must be revised when the code changes.
var misses = map[string]string{
	"result": "Read the rows top to bottom. On 2026-11-22 the profile showed the time going not to " +
		"decoding but to copies: pduwire.Value (11 words) and pcp.Atom (40 bytes) were larger than the " +
		"32 bytes the Go compiler keeps in registers, so each call returning or taking one copied it " +
		"through memory with 16-byte moves straddling narrower stores, a store-forwarding stall each " +
		"(-disasm put the flat time on those moves). Value is now 32 bytes and inlines, Atom is 32 " +
		"bytes with the same API, Extract has a same-type fast path, and ParseResult checks fixed-size " +
		"blocks by table in a register-resident loop: ParseResult + Extract went from 42.6 to about " +
		"8.4 µs (0.24x -> about 1.25x), typed reads of Value from 20.4 to about 5.6 µs (about 1.9x), " +
		"ParseResult alone from 2.9 to 1.6 µs. What remains between the Extract row and the typed-read " +
		"row is one call per value: pcp.Extract is over the inlining budget (any fallback call costs " +
		"the inliner 57 of its 80), so each of the 1,000 values pays a call with Raw and two types in " +
		"and Atom plus error out. libpcp, although it mallocs ~106 times per PDU and copies every " +
		"string, runs one tight loop per value set. An extraction loop over a whole value set (one call " +
		"per set, converting same-type values inline into a caller's []pcp.Atom) was tried the same " +
		"day and measured no faster (9.4 µs against 9.2): after the copies went, the profile has no hot " +
		"spot left, the time is spread over validation (about 1.6 µs), the value walk (about 2 µs), " +
		"building atoms and the consumer's type switch. Next steps (pduwire and pcp owners): fuse " +
		"validation and the first walk (a caller that reads every value could validate each block as " +
		"it reads it), and re-measure with -rounds 31 on a quiet machine; the lower-bound row (about " +
		"2.3x) is the ceiling of this design. On 2026-11-25 the first row became pduwire.ResultReader, " +
		"which checks each value set as Next reaches it and reads it right away: 5.4 µs against 5.7-5.9 " +
		"for ParseResult then a walk. Checking value by value was tried and measured slower (a NextValue " +
		"scanner 7.3 µs, decoding a set into a caller's []Value 7.0 µs): the per-value call does not " +
		"inline, and ParseResult's loop never touches insitu values, which are half of this PDU. The " +
		"ratio moves with libpcp's own time, which was 10.5 µs on 2026-11-22 and 12.3-12.8 µs in every " +
		"run on 2026-11-25 (2.3x then); at 10.5 µs the reader row is about 1.95x. Next: fewer checks per " +
		"block in tiling.add (its hot spot is the block-header load feeding the fixed-size test, which " +
		"a constant-table variant did not improve) and cheaper typed accessors on Value.",
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
		"on this shared machine (see min/max); the client CPU column is steadier, and the fetch-client figure " +
		"measures the client alone. Changes of 2026-11-22: pduwire.Reader buffers (one read per PDU that has " +
		"arrived whole), and Options.BlockingIO reads with blocking system calls as libpcp does: about 61 -> 40 " +
		"µs of client CPU per fetch against libpcp's 27. Changes of 2026-11-25 (the notes above): 40-42 -> " +
		"14-18 µs, below libpcp's 16-19 in every run. Three runs of 31 interleaved rounds on 2026-11-25 gave " +
		"wall ratios of 1.11x, 1.02x and 1.02x: pmapi's own time is now a small part of a round trip that is " +
		"mostly pmcd's, so the wall ratio sits near 1 and a busy machine can push a single run either side of " +
		"it. Next step: none in the client for the wall time; more rounds on a quiet machine for a steadier " +
		"median.",
	"fetch-client": "What the floor rows are: the transport floor is the least any client over that socket spends " +
		"(the loopback stack, waking the fake pmcd, the client's own sleep and wake-up in the kernel); libpcp makes " +
		"five system calls where it makes two (sendto, then pselect and recvfrom for the header and again for the " +
		"body) and ten mallocs for the pmResult. pmapi's blocking client makes the floor's two (write, read: strace -f " +
		"-c counts 1 and 1 per fetch). Of its time above the transport floor, the decode row is the parse and the " +
		"caller's walk of the reply; the rest is the Go runtime around two blocking system calls (the same write + " +
		"read loop written in Go with syscall.Write and syscall.Read costs 0.5-1 µs more than the C floor) and the " +
		"client itself (lock, request PDU, the timeout's timer: about 0.4 µs). Changes of 2026-11-25: " +
		"Options.BlockingIO works on a duplicate of the socket's descriptor that Go's network poller does not watch " +
		"(the socket had stayed in the poller's edge-triggered epoll set, so each reply woke the thread waiting in " +
		"epoll_pwait for nothing: 20-33 -> 11-12 µs of CPU per fetch then), and a blocking client yields its " +
		"processor every 2 ms (a goroutine that only waits in system calls never passes the scheduler, so every 10 " +
		"ms the runtime's monitor preempted it and then polled every 20 µs for a millisecond: about 8% less CPU). The " +
		"default client pays for parking in the poller: a read that returns EAGAIN, epoll_pwait, and the runtime's " +
		"monitor woken at each write (runtime.entersyscallWakeSysmon), 2-3 µs more per fetch. Next step: none in " +
		"the client over TCP while the floor rows sum above the goal; over the unix socket a cheaper walk of a " +
		"validated result narrows the gap.",
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
	"viewer": "Met on 2026-11-27 at 293d698 on a shared 2-core host (6.4 MB in 1.12-1.13 s, 100 MB at 43.2-44.2 MB/s; " +
		"on 2026-11-25's host the code of that day had met it too), with a margin of 8-10 % on 100 MB: one load " +
		"varies by 10-20 % with the host's other work, so a run may miss it. Where a 100 MB load from a ready " +
		"page goes (2.2-2.4 s): the worker's decode, 1.8-2.0 s (kpi_feed in V8 1.3-1.5 s, reading the steps " +
		"0.3 s, the file's reads 0.1 s), then the table and the three charts in view, 0.4-0.5 s on the page's thread, " +
		"mostly code that runs once per load and so unoptimised (the charts' series take 15-40 times longer " +
		"the first time than once V8 has optimised them). The page's work during a load slows the worker: on " +
		"two cores it takes the time of V8's compiler threads, which optimise the module's hot functions. " +
		"Changes of 2026-11-27: the module started with the worker, then compiled by the page as it opens and " +
		"handed to the worker; a faster KPI pipeline (natively 209 -> 375 MB/s on the viewer's pieces, the js " +
		"module in Node 62 -> 100 MB/s); the steps read in place into typed columns; the file read into two " +
		"reused buffers (the default reader took 12 ms per 2 MB read: 0.6 s per 100 MB); a warm-up of 48 " +
		"rounds of a 160 KB capture before the first file; the ended processes posted in columns and their " +
		"rows made as they arrive; a file's CPU chart drawn once while loading (redraws had slowed the decode " +
		"by 0.3 s), each chart drawn once at the end, the charts below the fold drawn when scrolled near, the " +
		"charts' peaks in typed arrays. Next step if it misses: a columnar KPI step written by the module.",
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
	"pmda": "The fetch rate is pmcd's and the loopback's more than either PMDA's: per fetch of 10,000 values pmcd " +
		"spends about 1.1-1.5 ms of CPU and each PMDA about 0.4-0.6 ms (the CPU split note), so the wall ratio sits " +
		"near 1 and moves with the machine's load: five runs of -rounds 9 on 2026-12-06, with other builds running, " +
		"gave 0.98x, 1.08x, 0.95x, 1.14x and 0.89x. The Go PMDA's CPU per fetch was below the C PMDA's in every one " +
		"of them (367-566 µs against 426-596 µs), with 0 allocations in 2,701 steady-state fetches; RESULTs go " +
		"through pduwire's ResultPDU.Append and are byte-identical to the C PMDA's apart from the pmIDs' domain " +
		"bits. What is left on the Go side is pmcd's: it spends about 0.04 ms more per fetch with the Go PMDA in " +
		"most runs on the same bytes, a cause not yet found.",
}
