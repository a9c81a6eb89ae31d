//go:build unix

package mmvfile

import (
	"io/fs"
	"os"
	"syscall"

	"github.com/perfwire/perfwire/mmv"
)

// maxFile bounds the size of a file Open maps; real MMV files are a few
// megabytes at most.
const maxFile = 1 << 30

// Mapping is an MMV file mapped shared and read-only: its File sees
// the writer's value updates as they happen.
type Mapping struct {
	data []byte
	opts mmv.Options
	File mmv.File
	// Reader is the name File had, a copy of it (copies share the
	// bytes): a Reader in this SDK reads an io.Reader.
	//
	// Deprecated: use File.
	Reader mmv.File
}

// Open maps the file at path read-only and validates it with
// [mmv.Parse] and o (the zero Options: little-endian, the default
// limits). When the writer republishes (the File reports
// [mmv.File.Stale]), call [Mapping.Reload]. It fails with the OS's
// error, or with an *fs.PathError wrapping [mmv.Parse]'s *mmv.ParseError.
func Open(path string, o mmv.Options) (*Mapping, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	switch {
	case st.Size() < mmv.HeaderSize:
		return nil, &fs.PathError{Op: "open", Path: path,
			Err: &mmv.ParseError{Format: "mmv", Field: "header", Offset: st.Size(), Err: mmv.ErrTruncated}}
	case st.Size() > maxFile:
		return nil, &fs.PathError{Op: "open", Path: path,
			Err: &mmv.ParseError{Format: "mmv", Field: "file size", Offset: st.Size(), Err: mmv.ErrLimit}}
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, &fs.PathError{Op: "mmap", Path: path, Err: err}
	}
	m := &Mapping{data: data, opts: o}
	if m.File, err = mmv.Parse(data, o); err != nil {
		syscall.Munmap(data)
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	m.Reader = m.File
	return m, nil
}

// Reload validates the mapped bytes again with the options given to
// Open, after the writer changed the generation in place; on failure it
// returns the *mmv.ParseError and keeps the old File. A
// writer that replaced the file needs a new Open.
func (m *Mapping) Reload() error {
	r, err := mmv.Parse(m.data, m.opts)
	if err != nil {
		return err
	}
	m.File, m.Reader = r, r
	return nil
}

// Close unmaps the file; the File must not be used afterwards.
func (m *Mapping) Close() error {
	if m.data == nil {
		return nil
	}
	err := syscall.Munmap(m.data)
	m.data = nil
	return err
}
