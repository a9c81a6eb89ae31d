// Package dltkpi decodes the KPI messages that COVESA's dlt-kpi (DLT
// 2.18.8) logs into DLT, reassembles their BEG…END groups and keeps the
// process table and interrupt rates they describe.
//
// dlt-kpi logs verbose messages in context PROC/PROC whose arguments are
// all strings: the identifier (NEW, STP, ACT, CHK or IRQ), then either a
// sync code (the 2-argument markers [kind, BEG] and [kind, END]) or one
// dataset per argument: "pid;ppid;cmd" for NEW (split on the first two
// ';' only), "pid" for STP, "pid;cpu;rss;ctx;io;iowait" for ACT,
// "pid;cmd" for CHK and "name;cpu0:N;cpu1:M;" for IRQ. The bytes are raw
// /proc content and are never validated as text. A list longer than one
// message is split over several data messages of a group; libdlt leaves
// a truncated copy of the dataset that did not fit (ending in
// TruncationMarker) at the end of a full message, and a dataset that fits
// no message makes dlt-kpi re-send fragments forever and never end its
// group. [Parse] and [ParseDataset] decode, the Append functions and
// [EncodeGroup] produce exactly what dlt-kpi sends, the [Reassembler]
// turns messages into datasets and group events with every anomaly
// counted, the [Tracker] builds what a viewer shows, and a [Session]
// wires the two behind a DLT message stream. The spec
// (dlt-kpi.md) lists where dlt-kpi differs from its own documentation:
// RSS is in pages, ctx and io are cumulative, cmd is argv[0] only, and a
// comm containing whitespace shifts the /proc fields dlt-kpi reads.
//
// Allocation and lifetime: [Parse], the dataset scanner and the
// Reassembler allocate nothing per message; a [Message], its datasets
// and every [Event] are views into the payload passed in and are valid
// until the caller reuses that buffer; [Dataset.Clone] copies. Errors
// are *[ParseError] values whose kinds are internal/wire's shared ones
// ([ErrTruncated], [ErrSyntax], ...), built only on failure paths. The Tracker copies what it keeps and
// allocates when it learns new processes or interrupts. Memory is
// bounded by [Options]; nothing here is safe for
// concurrent use.
package dltkpi
