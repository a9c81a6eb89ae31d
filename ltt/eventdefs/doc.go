// Package eventdefs parses the description files of an LTT trace: the
// facility definitions in eventdefs/*.xml and the machine description in
// info/system.xml, into the types of package ltt.
//
// The facility files look like XML but are not: attribute values may be
// bare names or numbers, C comments are skipped, attributes are read by
// position, and an event without payload needs a description. The
// parser follows what LTTV's own tokenizer accepted (keywords are matched
// without case, as from 2005) rather than an XML library, which keeps the
// package free of encoding/xml and reflection. Named types are shared:
// every typeref points at its definition's *ltt.Type, so the expansion
// stays small; cycles and expansions larger than Options.MaxNodes are
// errors.
// Parsed strings are copies, independent of the input.
package eventdefs
