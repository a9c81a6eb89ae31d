// Package eventrec decodes and encodes PCP event record arrays, the
// payload of PM_TYPE_EVENT and PM_TYPE_HIGHRES_EVENT values.
//
// An array travels as a pointer-format value block (DPTR or SPTR) inside a
// RESULT or HIGHRES_RESULT PDU, or an archive record: its first word is
// the block header (type 9 or 10 and ea_len, the array's total length),
// then a record count and the records back to back. A record has a
// timestamp (32-bit seconds and microseconds, or 64-bit seconds and
// nanoseconds for the high-resolution kind), a flags word (point, start,
// end, id, parent) and its parameters: each a pmID, a type/length word and
// a big-endian value padded to 4 bytes, with no alignment padding, so
// 64-bit fields may sit at offsets ≡ 4 (mod 8). A record whose flags are
// exactly MISSED carries no parameters: its count field is the number of
// records the PMDA dropped. Parameters may be numbers, strings (no NUL) or
// aggregates, never another event array.
//
// [Parse] validates the whole array in one pass (bounded by ea_len, every
// length compared in 64-bit arithmetic, counts checked against the bytes
// that remain and against [Options] limits) and returns an [Array] view;
// iterating it with [Array.All], [Array.Records] or a [Scanner], and its
// records' parameters with [Record.Params] or a [ParamScanner], then
// cannot fail. Failures are *[ParseError] values carrying a kind
// (internal/wire's shared kinds, and [ErrBuild] for a builder used out of
// order) and the byte offset of the offending field. [Unpacker] presents records
// the way libpcp's pmUnpackEventRecords does, and [Builder] packs arrays
// the way a PMDA does.
//
// Allocation and lifetime: Parse, the iterators, the scanners, the typed
// getters and Flags.AppendText allocate nothing. Arrays, records and
// parameters alias the caller's bytes and stay valid while those bytes
// are not modified; [Array.Clone] and [Param.Clone] copy. An [Unpacker]
// reuses its storage, so its results are valid until its next Unpack. A
// [Builder] appends to the caller's buffer and allocates only when that
// buffer must grow. Nothing here is safe for concurrent mutation; values
// may be read from several goroutines.
package eventrec
