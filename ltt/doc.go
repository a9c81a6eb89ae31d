// Package ltt reads traces of the old Linux Trace Toolkit as LTTV's
// "poly" branch wrote them (2003–2005), and writes the v2 core profile.
//
// A trace is a directory: info/system.xml gives the byte order, the data
// model (widths of C int and long) and the block size; eventdefs/*.xml
// describe facilities, each an ordered list of events with a payload type;
// cpu/N and three control files are tracefiles. A tracefile is a sequence
// of equal blocks. A block opens with block_start (id 17) and closes with
// block_end (id 18), both carrying the wall clock and the full cycle
// counter, and ends with a u32 trailer that locates block_end. Between
// them, events are packed back to back: u16 id, u32 low half of the cycle
// counter, then a payload whose size only the event's type tells, so an
// unknown id stops the walk. Two incompatible trailer rules exist: v1
// (the only surviving real trace, smp_example) and v2; [Decoder.Block]
// detects them per block. Event cycles are rebuilt by counting wraps of
// the 32-bit field (and, in v1, heartbeats, id 19), and wall time is
// interpolated in integers between the block records. The core facility
// (ids 0–21) is built in as [Core]; package eventdefs parses other
// facilities and system.xml, and package tracedir opens whole directories
// through io/fs.
//
// Allocation and lifetime: [Decoder.Block] returns a [Block] that is a view
// of the caller's bytes; [Scanner] walks it without allocating, and every
// [Event] and [Value] it yields (payload bytes, strings as [Value.Text])
// aliases that buffer and is valid until the buffer is modified or reused,
// for [Tracefile] until its next Block call. Copy what must outlive it.
// Decoders, facilities and types are immutable once built and may be
// shared. Malformed input yields a *[ParseError] carrying the offset and
// one of the Err* kinds, never a panic; every offset, count and length is
// checked against the block first. The [Writer] ([NewWriter]) appends
// into a growing slice, which it returns from Finish.
package ltt

//go:generate go run gen_core.go
