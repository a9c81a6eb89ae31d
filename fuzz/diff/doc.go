// Package diff checks perfwire's decoders against the installed libpcp
// (PCP 6.0.3): the same bytes go through both, and they must agree on
// accept or reject and on every decoded value.
//
// It is a separate module because it needs cgo and libpcp, which the SDK
// never links; `make fuzz-diff` runs it. libpcp runs in a child process
// (the test binary re-executed with [ChildEnv] set) so that its crashes
// and hangs are reported as outcomes instead of ending the run. Both
// sides write the same canonical text (oracle.c for libpcp, [Ours] for
// perfwire) covering ERROR, DESC, TEXT, LABEL, RESULT and HIGHRES_RESULT
// PDUs, event arrays unpacked as pmUnpackEventRecords does, and label
// texts through __pmParseLabelSet.
package diff
