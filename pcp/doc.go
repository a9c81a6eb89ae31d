// Package pcp is the shared vocabulary of Performance Co-Pilot (PCP): metric
// identifiers (pmID), instance domains (pmInDom), value types and
// semantics, the packed pmUnits word, PM_ERR_* status codes, and the value
// extraction and scale conversion every PCP client performs.
//
// PCP packs identifiers into 32-bit words whose bit fields are defined on
// the word read big-endian: a pmID is 9 bits of domain (the PMDA), 12 of
// cluster and 10 of item; a pmInDom is a domain and a 22-bit serial; a
// pmUnits word holds three signed 4-bit dimensions (space, time, count)
// and their scales. [ID], [InDom] and [Units] keep exactly those words, so
// they can be copied to and from PDUs, MMV files and event records without
// translation, and print the same text libpcp 6.0.3 prints (pmIDStr,
// pmInDomStr, pmUnitsStr, pmTypeStr, pmSemStr, pmPrintDesc, pmAtomStr). A value travels either in
// a 32-bit insitu word or in a value block; [Extract] turns either into an
// [Atom] of the type the caller wants, with pmExtractValue's rules, and
// [ConvScale] rescales it as pmConvScale does. [Code] is a status word:
// it carries pmErrStr's message for PCP codes, errno values and the
// authentication range, and is itself an error, so the conversion
// failures [ErrConv], [ErrTrunc] and [ErrSign] (and any PM_ERR_* code a
// peer sends) match with errors.Is. Extract's failures are *[ParseError]
// values whose kind matches both the PM_ERR_* code and internal/wire's
// shared kind ([ErrRange], [ErrLength], or the type kind for an
// impossible conversion), the same kinds every perfwire format uses. The
// tables and all conversion results are checked against the installed PCP
// 6.0.3 (pmerr, and libpcp through python3-pcp); gen_errors.go regenerates
// the message table.
//
// Allocation and lifetime: nothing in this package allocates except the
// String methods and Message for codes without a fixed text (unknown
// codes print their number); AppendText methods append into the caller's
// buffer. Extract, ConvScale and the accessors never allocate. An Atom of
// type STRING or AGGREGATE is a view of the bytes it was extracted from
// and is valid as long as they are unchanged; [Atom.Clone] detaches it.
// All types are plain values, safe to copy and to use from several
// goroutines.
package pcp
