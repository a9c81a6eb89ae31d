// Package ltt reads old Linux Trace Toolkit (LTT/LTTV) trace files and
// writes the core profile.
//
// A trace is a folder of per-CPU and control files made of fixed-size
// blocks; each block starts and ends with a time-stamped event and holds
// events whose payloads are described by XML facility definitions.
// Timestamps are reconstructed from the block's cycle counts. Byte order
// comes from the trace's system description.
//go:generate go run gen_core.go

package ltt
