// Package archive reads PCP archives, the files pmlogger writes: a label
// record in every file, metadata in BASE.meta (metric descriptors,
// instance domains and their changes, label sets, help text), a temporal
// index in BASE.index, and the recorded values in data volumes BASE.0,
// BASE.1, ... Versions 2 (32-bit offsets, microsecond times) and 3
// (64-bit offsets, nanosecond times) are read. The byte layout, the
// quirks of real pmlogger output and the tests that cover each rule are
// in docs/pcp-archive.md.
//
// An archive is opened from its files as [File] values (an io.ReaderAt
// and a size), so it reads from memory, from a mapped file or from any
// [io/fs.FS] without the os package, and builds for WebAssembly. The
// metadata is read whole when the archive is opened (it is small); the
// data volumes are read a record at a time and never held whole.
//
// A data record is a RESULT PDU's body behind a header of its own, so
// values are walked with package pduwire's views: [Record.Result] is a
// [pduwire.Result] over the record's bytes. Reading records allocates
// nothing once the scanner's buffer has grown to the largest record.
//
// Malformed input is reported as a *[ParseError] naming the file, the
// field and the byte offset in that file; the records before the damage
// have been returned by then, as pmdumplog prints them. Every error of
// this package is such a *ParseError, its kind tested with errors.Is
// ([ErrTruncated], [ErrWriterDone], ...), except where PCP's own code is
// the answer a PMAPI caller expects: [Context]'s lookups and fetches
// return [pcp.Code] values ([ErrEOL] past the end, pcp.ErrPMIDLog for a
// metric the archive does not hold), as the live client's do.
package archive
