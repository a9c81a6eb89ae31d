// Package mmv reads and writes MMV files: the memory-mapped metric values
// that applications share with PCP's pmdammv.
//
// An MMV file is a header followed by a table of contents pointing at
// sections of fixed-size records: instance domains, instances, metrics,
// values and strings. Versions 1, 2 and 3 differ in name lengths and in
// where names live. Offsets are byte offsets from the start of the file;
// the writer's generation numbers tell readers when the layout is stable.
package mmv
