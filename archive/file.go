package archive

import (
	"errors"
	"io"
	"strconv"
)

// File is one file of an archive: its name (for errors), its bytes and
// its size. R may be an *os.File, a mapped file, or a bytes.Reader.
type File struct {
	_    [0]func() // not comparable: no equality function in the wasm build
	Name string
	R    io.ReaderAt
	Size int64
}

// BytesFile returns a File over b.
func BytesFile(name string, b []byte) File {
	return File{Name: name, R: &bytesAt{b}, Size: int64(len(b))}
}

// bytesAt is BytesFile's io.ReaderAt: bytes.Reader's ReadAt, errors
// included, without its Read and Seek, which a bytes.Reader in an
// interface keeps in a WebAssembly module (module size; see wasm/size).
type bytesAt struct{ b []byte }

var errNegativeOffset = errors.New("bytes.Reader.ReadAt: negative offset")

func (r *bytesAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errNegativeOffset
	}
	if off >= int64(len(r.b)) {
		return 0, io.EOF
	}
	n := copy(p, r.b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// ioFail reports a read error; a short read is truncation.
func ioFail(file, field string, off int64, err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fail(file, field, off, ErrTruncated)
	}
	return &ioError{file: file, off: off, err: err}
}

// ioError is a read error of the underlying file, not damage.
type ioError struct {
	_    [0]func() // not comparable: no equality function in the wasm build
	file string
	off  int64
	err  error
}

func (e *ioError) Error() string {
	return e.file + ": archive: read at offset " + strconv.FormatInt(e.off, 10) + ": " + e.err.Error()
}

func (e *ioError) Unwrap() error { return e.err }

// readLabel reads and checks the label record at the start of f.
func readLabel(f File) (Label, int64, error) {
	var b [labelLenV3]byte
	n := min(int64(len(b)), f.Size)
	if _, err := f.R.ReadAt(b[:n], 0); err != nil && err != io.EOF {
		return Label{}, 0, ioFail(f.Name, "label", 0, err)
	}
	// ParseLabel fails with a zero Label and length, and rebase keeps nil.
	l, size, err := ParseLabel(b[:n])
	return l, int64(size), rebase(err, f.Name, 0)
}
