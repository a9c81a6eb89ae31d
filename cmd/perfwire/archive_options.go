package main

import (
	"os"

	"github.com/perfwire/perfwire/archive"
)

// archiveOptions is what every command opens an archive with (archive,
// archive val, export, and the files --plugin hands the module): a
// compressed file decompressed past archive.DefaultSpillAbove goes to a
// temporary file, so that a reader holds a few megabytes of a volume, not
// the whole of it.
var archiveOptions = archive.Options{Decompressors: codecs, Spill: tempSpill}

// tempSpill creates a temporary file in os.TempDir() for a decompressed
// archive file and removes its name at once: the open file is all there
// is of it, gone when it is closed or the process ends however it ends.
// Where an open file's name cannot be removed, Close removes it.
func tempSpill() (archive.SpillFile, error) {
	f, err := os.CreateTemp("", "perfwire-spill-*")
	if err != nil {
		return nil, err
	}
	if os.Remove(f.Name()) == nil {
		return f, nil
	}
	return removeOnClose{f}, nil
}

// removeOnClose is a temporary file removed when it is closed.
type removeOnClose struct{ *os.File }

func (f removeOnClose) Close() error {
	err := f.File.Close()
	if rerr := os.Remove(f.Name()); err == nil {
		err = rerr
	}
	return err
}
