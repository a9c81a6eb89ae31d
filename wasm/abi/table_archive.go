//go:build archive

package abi

// The call table of the archive module: archive_open, archive_next.
var (
	calls = [numOps]handler{
		OpArchiveNext: archiveNext,
	}
	opens = [numOps]opener{
		OpArchiveOpen: archiveOpen,
	}
)
