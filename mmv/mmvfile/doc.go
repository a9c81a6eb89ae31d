// Package mmvfile puts MMV files where pmdammv finds them: it creates a
// file under $PCP_TMP_DIR/mmv, maps it shared and read-write, lays it
// out with package mmv and publishes it; it maps existing files
// read-only for live reading; and it scans a directory the way pmdammv
// does.
//
// It is the operating-system half of package mmv, which stays free of
// os and mmap so that it builds for WebAssembly. Mapping (Create, Open)
// needs a unix system; Scan works everywhere. A [Writer]'s slots write
// straight into the shared mapping, so a value update is one load and
// one store with no system call and no allocation. Mapped files must
// not be truncated by another process while mapped: reads past the new
// end fault (SIGBUS), as with any shared mapping.
package mmvfile
