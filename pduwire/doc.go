// Package pduwire decodes and encodes the PDUs that PCP clients, pmcd and
// PMDAs exchange over TCP and pipes.
//
// Every PDU starts with a 12-byte big-endian header: the total length
// (header included, not always a multiple of 4), a type code and a sender
// tag. Bodies are sequences of big-endian words, counted arrays and padded
// strings; value results point at their value blocks by 32-bit word
// indexes from the start of the PDU. Decoders are views over the caller's
// bytes and check every count against the bytes that remain.
package pduwire
