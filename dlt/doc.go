// Package dlt reads and writes AUTOSAR/COVESA DLT v1 log messages: the
// storage header of .dlt files ("DLT\x01", receive time, ECU), the serial
// header ("DLS\x01"), the standard header (HTYP flags, counter, big-endian
// LEN, optional ECU id, session id and 0.1 ms timestamp), the extended
// header (verbose flag, message type and subtype, argument count, APID,
// CTID) and the verbose payload: a sequence of arguments, each a 32-bit
// type info word followed by an optional name and unit and the value —
// bool, signed and unsigned integers of 8 to 128 bits, floats of 16 to 128
// bits, strings, raw bytes — in the byte order the MSBF flag selects
// ([Message.Order], [Header.Order]: a binary.ByteOrder).
// Non-verbose messages (including control messages) carry a 32-bit
// message id followed by untyped data.
//
// [Scanner] walks a buffer holding a file or stream capture
// ([Options.Framing] selects storage, serial or bare framing) and yields
// [Message] views; after a corrupt record it resynchronises on the next
// header pattern whose record validates and counts the skipped bytes.
// [Reader] does the same over an io.Reader (a daemon connection, a
// serial line) with a fixed-size buffer, and [Feeder] over pieces the
// caller pushes as they arrive (a wasm host's calls, a browser stream):
// all three decide the same records however the input is cut.
// [ConsumeMessage] decodes one record for callers that manage their own
// buffers. [Message.Args] and
// [Message.ArgScanner] decode the arguments; [Arg.AppendText] prints one
// as dlt-convert -a does and [Message.AppendText] prints the whole
// dlt-convert -a line, [Message.AppendHeaderText] and
// [Message.AppendPayloadText] its two parts. [Builder], [AppendArg] and [AppendStorageHeader]
// encode messages that dlt-convert decodes identically. Decoding failures
// are [*ParseError] values with the input offset and one of the Err*
// kinds: internal/wire's shared kinds ([ErrTruncated], [ErrMagic], ...),
// and [ErrNotVerbose], this package's own.
//
// Allocation and lifetime: scanning messages and decoding arguments
// allocate nothing. A Message, an Arg and every []byte they return are
// sub-slices of the caller's buffer, valid until the caller modifies or
// reuses it; Clone copies. Messages are validated before they are
// returned, so header accessors cannot fail; arguments are decoded
// lazily and every length is checked against the payload that remains.
// A Reader allocates its buffer once ([Reader.Reset] keeps it for the
// next input) and its messages are valid only
// until its next call to Next; a Feeder's are valid until its next Feed. No buffer is ever sized from the wire.
//
// Where this package and dlt-convert 2.18.8 differ (both checked by the
// conformance tests): the tool decodes type infos with several kind
// bits by a priority order, 8-bit floats as hex, and integer arrays as
// their first element, where this package reports [ErrType];
// the tool prints nothing for BIN-coded integers of 32 bits or more and
// HEX-coded 128-bit ones, where [Arg.AppendText] prints the value.
//
// Adding a new argument type (for example arrays or structs):
//
//  1. Add its type info bit or TYLE rule to typeinfo.go: a Kind constant
//     and name, kindOf, and valueSize (-1 until it decodes).
//  2. Decode its layout in decodeArg (args.go), checking every length
//     against the remaining payload, returning views, and failing with
//     ErrTruncated or ErrType at the field's offset; nested
//     types need a depth limit in Options.
//  3. Add typed accessors to Arg (arg.go) and its dlt-convert text to
//     Arg.AppendText (text.go).
//  4. Encode it in ArgSpec/AppendArg (encode.go) so round-trip tests
//     and the randfill fuzz target cover it (fuzz_test.go).
//  5. Extend the conformance test so dlt-convert checks the encoding and
//     the text, and add bad-input rows to the table tests.
package dlt
