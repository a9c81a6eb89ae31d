// Package labels parses, canonicalises, indexes and merges PCP label
// sets: the JSONB objects that annotate contexts, PMDA domains, instance
// domains, metric clusters, metrics and instances.
//
// A label set is a JSON object of name/value pairs. PCP flattens nested
// maps into dotted names ({"a":{"b":1}} is the label a.b, flagged
// Compound), keeps flat arrays and scalars as verbatim value text, and
// pairs the text with an index: for each label, sorted by name, the byte
// offset and length of its name and value and a flags byte (hierarchy
// level, Compound, Optional). LABEL PDUs and archive records carry exactly
// that JSON plus index ([Set.DecodeWire], [Set.AppendIndex]; [Normalize]
// for sets in libpcp's unflattened single-parse form). Parse
// writes the canonical form libpcp produces after a merge (sorted, no
// white space), or with [Options].KeepOrder libpcp's single-parse form.
// Merge combines the levels of the hierarchy, context < domain < indom <
// cluster < item < instances, the later level winning on equal names, with
// an optional [Filter]. Unlike libpcp, the parser is strict (truncated
// input, duplicates, nested arrays and over-long sets are errors with byte
// offsets) and flattens any depth correctly; [Options] select the PCP 6.x
// (Classic) or 7.2 (Relaxed) name rules.
//
// Allocation and lifetime: a [Set] owns reusable buffers. Parse and Merge
// write into the destination Set's buffers and allocate nothing once they
// have grown to size; DecodeWire makes the Set's JSON alias the caller's
// bytes, valid until the caller reuses or modifies them, and reuses the
// index buffer. The [Pair] views returned by At, Lookup and All alias the
// Set's JSON and are valid until the Set is next written. Set.Clone copies
// everything. Errors are *[ParseError] values with the offset into the
// input and one of the Err* kinds (internal/wire's shared kinds, or the
// package's own where none of those names the failure); on error the
// destination Set is empty.
// Nothing here is safe for concurrent writes; distinct Sets are
// independent.
package labels
