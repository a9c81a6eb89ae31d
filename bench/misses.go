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
	"plugin-kpi": "What it measures: one kpi_decode call over a 156 KB dlt-kpi capture (kpi-odd.dlt), the DLT scan, " +
		"each message's dlt-kpi datasets parsed and written as MessagePack in place, in Node against the same call in " +
		"native Go. The floor rows run the decoder alone (dlt.Scanner, dltkpi's FromDLT and every dataset read, no " +
		"output) in Node and natively: it runs at about 0.2x, and the call's render part at about the same ratio. " +
		pluginRule,
	"plugin-pdu": "What it measures: one pdu_decode call over a 1 KB pmcd conversation (every PDU in full), a per-call " +
		"figure under 10 µs natively. Its floor is the decoder alone with its boundary (the input copied in, one " +
		"export): the PDU scanner and each body decoded (a RESULT's values walked, the other types unmarshalled), " +
		"about 0.2x native Go; the boundary alone row shows the crossing itself is a small part. " + pluginRule,
	"plugin-mmv": "What it measures: one mmv_read call over a 5.7 KB MMV file, a per-call figure under 10 µs natively. " +
		"Its floor is the decoder alone with its boundary: mmv.Parse's validation and every entry and value read, " +
		"below 0.2x native Go; the goal's throughput on MMV files is plugin-mmv-large's. " + pluginRule,
	"plugin-feed": "What it measures: one pdu_feed of a 312-byte HIGHRES_RESULT to an open PDU stream session, the " +
		"smallest useful call. Its floor is the decoder alone with its boundary (the PDU scanned and parsed, its " +
		"values read), below 0.2x native Go; the boundary alone row shows the crossing into the module is not " +
		"the cost. " + pluginRule,
	"plugin-stream": "What it measures: a 1 MiB stream of recorded RESULTs and HIGHRES_RESULTs (pmcd's captures and " +
		"libpcp's 1,000-value RESULTs) fed to a PDU stream session in 64 KB pieces, as the viewer feeds a socket or " +
		"a file, and about 2.7 MB of MessagePack read in place. The floor rows run the decoder alone (the PDU " +
		"scanner, pduwire.ParseResult and every value read) in Node and natively: about 0.25x, below the goal, " +
		"and render's part (most bytes of the result: keys and numbers written value by value) runs lower still. " +
		pluginRule,
	"plugin-mmv-large": "What it measures: one mmv_read call over a 662 KB MMV file (PCP QA's large-parfait laid out " +
		"again by mmv.Registry: 422 metrics, 432 instances, 11,422 values, about 1 MB of MessagePack out). The floor " +
		"rows run the decoder alone (mmv.Parse's validation, then every metric, indom, instance, label and value " +
		"read) in Node and natively: about 0.22x, below the goal; render's part runs at about 0.28x. " + pluginRule,
	"pmda": "The fetch rate is pmcd's and the loopback's more than either PMDA's: per fetch of 10,000 values pmcd " +
		"spends about 1.1-1.5 ms of CPU and each PMDA about 0.4-0.6 ms (the CPU split note), so the wall ratio sits " +
		"near 1 and moves with the machine's load: five runs of -rounds 9 on 2026-12-06, with other builds running, " +
		"gave 0.98x, 1.08x, 0.95x, 1.14x and 0.89x. The Go PMDA's CPU per fetch was below the C PMDA's in every one " +
		"of them (367-566 µs against 426-596 µs), with 0 allocations in 2,701 steady-state fetches; RESULTs go " +
		"through pduwire's ResultPDU.Append and are byte-identical to the C PMDA's apart from the pmIDs' domain " +
		"bits. What is left on the Go side is pmcd's: it spends about 0.04 ms more per fetch with the Go PMDA in " +
		"most runs on the same bytes, a cause not yet found.",
}
