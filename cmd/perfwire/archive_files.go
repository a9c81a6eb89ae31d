package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/exp/mmap"

	"github.com/perfwire/perfwire/archive"
)

// openArchive opens the archive named by arg: its base name, or any of its
// files (BASE.meta, BASE.index, BASE.0), as pmdumplog accepts. Its files
// are mapped, not read: a reader never holds a whole volume in memory.
func openArchive(arg string) (*archive.Archive, error) {
	a, err := archive.OpenFS(mapFS{}, archiveBase(arg), archiveOptions)
	if err != nil {
		return nil, &inputError{file: arg, err: err}
	}
	return a, nil
}

// archiveBase is the base name of the archive arg names, as a path of
// mapFS.
func archiveBase(arg string) string {
	base := arg
	for _, suf := range []string{".meta", ".index"} {
		base = strings.TrimSuffix(base, suf)
	}
	if i := strings.LastIndexByte(base, '.'); i > 0 && allDigits(base[i+1:]) {
		if _, err := os.Stat(base); err == nil {
			base = base[:i]
		}
	}
	return filepath.ToSlash(filepath.Clean(base))
}

func allDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// mapFS is the local file system with files mapped into memory
// (golang.org/x/exp/mmap); paths are the caller's, relative or absolute.
type mapFS struct{}

func (mapFS) Open(name string) (fs.File, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	r, err := mmap.Open(name)
	if err != nil {
		return nil, err
	}
	return &mappedFile{ReaderAt: r, info: st}, nil
}

func (mapFS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }

// mappedFile is a mapped file as an fs.File that is also an io.ReaderAt.
type mappedFile struct {
	*mmap.ReaderAt
	info fs.FileInfo
	off  int64
}

func (f *mappedFile) Stat() (fs.FileInfo, error) { return f.info, nil }

func (f *mappedFile) Read(p []byte) (int, error) {
	n, err := f.ReadAt(p, f.off)
	f.off += int64(n)
	return n, err
}
