// Package pduwire decodes and encodes the PDUs that PCP clients, pmcd,
// PMDAs and pmlogger exchange over TCP, unix sockets and pipes.
//
// Every PDU starts with a 12-byte big-endian header: the total length
// (header included, and not always a multiple of 4: ATTR and LABEL bodies
// are unpadded), a type code and a sender tag. Bodies are big-endian
// words, counted arrays and padded strings; RESULT and HIGHRES_RESULT
// point from their value sets to value blocks by 32-bit word indexes from
// the start of the PDU. [Scanner] (over a []byte) and [Reader] (over an
// io.Reader) cut a stream into PDUs with the same methods, checking
// 12 ≤ len ≤ [Options.MaxPDULen] before a body byte is read. Each PDU
// type has an owned message type implementing
// [Message]: Append encodes exactly the bytes libpcp emits, except that
// pad bytes are 0 where libpcp writes '~' (0x7e): the pad after a
// length-prefixed string (INSTANCE_REQ, INSTANCE, TEXT, PMNS_NAMES,
// PMNS_CHILD/TRAVERSE names), after a value block's payload, and at the
// end of LOG_STATUS; decoders ignore pad content. UnmarshalBinary decodes
// a whole PDU with
// libpcp's (hardened, 6.3.1+) length rules. [ParseResult] validates a
// RESULT once and returns a [Result] view whose value sets and values can
// then be walked without errors or allocations; [NewResultScanner] reads
// every value in one pass instead, checking each value set with the same
// rules as it reaches it (the faster way to read a whole result once). The connection handshake
// is data: [ParseServerHello], [ClientFlags], [AppendClientCreds]. For
// PDUs without a message type, [Builder] reserves the header and
// back-patches len; [ConsumeHeader] reads one.
//
// Allocation and lifetime: the framers, [ParseResult], [ResultScanner]
// and the [Result] walk allocate nothing (ParseResult and ResultScanner
// allocate one small bitmap only for value blocks referenced out of
// address order, which libpcp never emits). Byte slices in views and decoded messages alias the input and
// are valid until the caller reuses or modifies it; copy what you keep.
// UnmarshalBinary reuses the message's slices, so decoding into the same
// message in a loop reaches zero allocations; after an error the message
// is in an unspecified state. A PM_ERR_* code sent by the peer (an ERROR
// PDU, a negative numval) is a value, not a Go error. Decode failures are
// [*ParseError] values wrapping one of the Err* kinds, with the byte
// offset in the PDU (framers: in the stream).
//
// Adding a new PDU type:
//
//  1. Add its code to the Type constants and its name to typeNames (or
//     logTypeNames) in type.go.
//  2. Write the owned message type, named for its PDU with the suffix
//     PDU (LOG_STATUS: LogStatusPDU), in a file named for it, with Type,
//     Append (begin/finish back-patch the length; pad with zeros) and
//     UnmarshalBinary (open checks header and type; then check len ≥ the
//     minimum before reading counts, bound every count by the bytes left
//     in uint64, and state which Err* kind each rule returns).
//  3. Return it from New in message.go.
//  4. Tests: seed a FuzzX target with fuzzType, add bad-input rows to
//     TestBadInput, add it to roundTripTypes (and normalize) for the
//     randfill round trip, compare with real captures or PCP QA output.
//  5. Render its fields in the CLI (cmd/perfwire/pdu.go, func body).
package pduwire
