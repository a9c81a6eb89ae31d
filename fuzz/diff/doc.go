// Package diff checks perfwire's decoders against the installed libpcp
// (PCP 6.0.3): the same bytes go through both, and they must agree on
// accept or reject and on every decoded value.
//
// It is a separate module because it needs cgo and libpcp, which the SDK
// never links; `make fuzz-diff` runs it. libpcp runs in a child process
// (the test binary re-executed with [ChildEnv] set) so that its crashes
// and hangs are reported as outcomes instead of ending the run; one child
// serves many inputs, and a disagreement that no documented rule explains
// is asked again of a new child before it is reported, since libpcp's
// answers can depend on what malformed inputs did to the process. Both
// sides write the same canonical text (oracle.c for libpcp, [Ours] for
// perfwire) for every PDU type libpcp has a decoder for: ERROR, RESULT,
// HIGHRES_RESULT (event arrays unpacked as pmUnpackEventRecords does),
// PROFILE, FETCH, HIGHRES_FETCH, DESC_REQ, DESC, DESC_IDS, DESCS,
// INSTANCE_REQ, INSTANCE, TEXT_REQ, TEXT, CREDS, PMNS_IDS, PMNS_NAMES, PMNS_CHILD, PMNS_TRAVERSE,
// ATTR, LABEL_REQ, LABEL and the four LOG_* PDUs; and label texts through
// __pmParseLabelSet.
package diff
