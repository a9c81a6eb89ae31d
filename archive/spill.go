package archive

import (
	"io"
	"strconv"
)

// readDecompressed reads the decompressed file name from r, whole, up to
// o.MaxDecompressed bytes: into chunks of chunkSize while it is no larger
// than o.SpillAbove or o.Spill is nil, then into a SpillFile, to which
// the chunks read so far go first. Its size is not known before the end,
// and one buffer grown to it would hold it twice while it is copied (a
// day's volume is tens of megabytes, read by each of several workers at
// once). A SpillFile it returns is the caller's to close; on error it has
// closed it.
func readDecompressed(name string, r io.Reader, o Options) (File, io.Closer, error) {
	c := &chunksAt{}
	var sf SpillFile
	var buf []byte
	for {
		b := buf
		if sf == nil {
			b = make([]byte, chunkSize)
		}
		n, err := io.ReadFull(r, b)
		if c.size+int64(n) > o.MaxDecompressed {
			closeSpill(sf)
			return File{}, nil, failValue(name, "decompressed size", 0, ErrLimit, c.size+int64(n), o.MaxDecompressed)
		}
		if sf != nil {
			if werr := spillWrite(sf, name, b[:n], c.size); werr != nil {
				closeSpill(sf)
				return File{}, nil, werr
			}
			c.size += int64(n)
		} else if n > 0 {
			if n < chunkSize {
				// The last chunk, kept at its length: most .meta files
				// are a few kilobytes.
				b = append([]byte(nil), b[:n]...)
			}
			c.chunks = append(c.chunks, b[:n])
			c.size += int64(n)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			closeSpill(sf)
			return File{}, nil, &ioError{file: name, off: c.size, err: err}
		}
		if sf == nil && o.Spill != nil && c.size > o.SpillAbove {
			var err error
			if sf, err = spillChunks(name, c, o.Spill); err != nil {
				return File{}, nil, err
			}
			// From here on one chunk's buffer is reused.
			buf, c.chunks = c.chunks[0], nil
		}
	}
	if sf != nil {
		return File{Name: name, R: sf, Size: c.size}, sf, nil
	}
	return File{Name: name, R: c, Size: c.size}, nil, nil
}

// spillChunks opens a SpillFile and writes c's chunks, the start of the
// file name, to it; on error it has closed it.
func spillChunks(name string, c *chunksAt, spill func() (SpillFile, error)) (SpillFile, error) {
	sf, err := spill()
	if err != nil {
		return nil, &spillError{op: "open", file: name, err: err}
	}
	off := int64(0)
	for _, b := range c.chunks {
		if err := spillWrite(sf, name, b, off); err != nil {
			closeSpill(sf)
			return nil, err
		}
		off += int64(len(b))
	}
	return sf, nil
}

// spillWrite writes b, the bytes of the file name at off, to sf whole; a
// failure names the file and the offset the write stopped at.
func spillWrite(sf SpillFile, name string, b []byte, off int64) error {
	n, err := sf.Write(b)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return &spillError{op: "write", file: name, off: off + int64(n), err: err}
	}
	return nil
}

// closeSpill closes sf, when there is one, after a failure (the failure
// is the one reported).
func closeSpill(sf SpillFile) {
	if sf != nil {
		sf.Close()
	}
}

// spillError is a failure of the Options.Spill file a decompressed file
// goes to, not damage; a type of its own, apart from ioError, so that
// builds that never spill (the wasm modules) do not carry it.
type spillError struct {
	_    [0]func() // not comparable, as ioError
	op   string
	file string
	off  int64
	err  error
}

func (e *spillError) Error() string {
	return e.file + ": archive: spill " + e.op + " at offset " + strconv.FormatInt(e.off, 10) + ": " + e.err.Error()
}

func (e *spillError) Unwrap() error { return e.err }
