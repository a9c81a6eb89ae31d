// Package mmvfile puts MMV files where pmdammv finds them: it creates a
// file under $PCP_TMP_DIR/mmv, maps it shared and read-write, lays it
// out with package mmv and publishes it; and it maps existing files
// read-only for live reading.
//
// It is the operating-system half of package mmv, which stays free of
// os and mmap so that it builds for WebAssembly; this package builds on
// unix systems only. A [Writer]'s slots write straight into the shared
// mapping, so a value update is one load and one store with no system
// call and no allocation.
package mmvfile
