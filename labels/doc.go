// Package labels parses, canonicalises, indexes and merges PCP label
// sets: the JSONB objects that annotate contexts, domains, instance
// domains, clusters, items and instances.
//
// A label set is a flat JSON object of name/value pairs. PCP keeps it in
// canonical form (names sorted, no white space) with an index of byte
// offsets and lengths of every name and value, which is also how LABEL
// PDUs carry it. Sets are merged from the context down to the instance,
// lower levels overriding higher ones.
package labels
