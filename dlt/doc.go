// Package dlt frames AUTOSAR/COVESA DLT log messages: storage headers,
// the standard header, the extended header and verbose arguments.
//
// A DLT file is a sequence of messages, each behind a 16-byte storage
// header ("DLT\x01", time, ECU). The standard header's flags say which
// optional fields follow and whether payload integers are big-endian;
// verbose payloads are typed arguments described by a type-info word.
// Decoding is a view over the caller's bytes.
package dlt
