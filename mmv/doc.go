// Package mmv reads and writes MMV files: the memory-mapped metric values
// that applications share with PCP's mmv agent (pmdammv, domain 70).
//
// An MMV file is a 40-byte header ("MMV\0", version, generation numbers
// g1 and g2, flags, writer pid, PMID cluster), a table of contents, and
// sections of fixed-size entries found only through 64-bit offsets:
// instance domains, instances, metrics, values, 256-byte strings and, in
// version 3, labels. Version 1 keeps metric and instance names inline (at
// most 63 bytes), version 2 moves them to the strings section, version 3
// adds labels. A writer stores g1, lays out the metadata, and stores g2 =
// g1 last; readers ignore a file whose generations differ. Values are
// then updated in place with plain stores and read without locks. Files
// are in the writer's byte order, so every entry point takes a
// binary.ByteOrder ([Options.Order] for the reader; nil means
// little-endian, what every known writer produces in practice).
//
// [Parse] validates a whole file once: everything pmdammv checks,
// plus every string reference (offset + 256 inside the file and a NUL),
// every entry offset (pointing at an entry of the right section), items
// (unique, at most 1023), types, semantics, indoms and label payloads.
// [Options] set the byte order and the limits, each zero field taking
// its default ([DefaultMaxMetrics], ...). Failures are *[ParseError]
// values wrapping a kind (shared kinds such as [ErrLimit] are
// internal/wire's, the same for every format), with the section, entry
// and byte offset, and the value and limit where a number broke one.
// MMV's own kinds are exported only where a caller branches on them
// ([ErrGeneration]: read again later; [ErrNoSuchEntry]: a lookup missed;
// [ErrTooLong]: shorten the text); the others are told apart by their
// stable Code ("mmv_bounds", "mmv_offset", ...), as the wasm ABI does. [Registry.Plan]
// lays out a file the way libpcp_mmv does, choosing the lowest version
// that fits, and refuses what pmdammv would silently drop. [Plan.Slot]
// gives allocation-free handles for value updates; [File.Registry] and
// [Plan.CopyValues] lay a file's contents out again (in the other byte
// order, or without the entries a reader skipped); [AppendDump] prints
// mmvdump's text; [AppendMetricName], [PMID], [InDomID] and [Assign]
// predict pmdammv's names and numbers. Package mmvfile maps files for
// live writing and reading; this package has no os or mmap code and
// builds for WebAssembly.
//
// Allocation and lifetime: Parse, every File and Value accessor,
// slot updates and AppendDump (given room) allocate nothing. Names, help
// texts, label payloads and string values are sub-slices of the bytes
// given to Parse, valid while those bytes are; copy them to keep
// them. Values are read from the bytes on every call, so a File over a
// live mapping sees updates; when [File.Stale] reports a new
// generation, Parse again. Registry.Plan, File.Registry, Assign
// and AppendFile allocate.
package mmv
