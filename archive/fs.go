package archive

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// compressedSuffixes are the suffixes PCP's tools leave on compressed
// volumes and .meta files (docs/pcp-archive.md §1).
var compressedSuffixes = []string{".xz", ".zst", ".gz", ".bz2", ".lzma", ".Z", ".z"}

// OpenFS opens the archive named base (a path without suffix, such as
// "logs/20261125") in fsys: base.meta, base.index when present, and every
// data volume base.N. Files that implement io.ReaderAt (os.DirFS's do) are
// read in place; others are read into memory. Close releases the files.
func OpenFS(fsys fs.FS, base string, o Options) (*Archive, error) {
	dir, stem := path.Split(base)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var c closers
	var meta, index *File
	var vols []File
	for _, e := range ents {
		name := e.Name()
		rest, ok := strings.CutPrefix(name, stem+".")
		if !ok || e.IsDir() {
			continue
		}
		var unzip Decompressor
		for _, suf := range compressedSuffixes {
			if plain, ok := strings.CutSuffix(rest, suf); ok && archiveSuffix(plain) {
				if unzip = o.Decompressors[suf]; unzip == nil {
					c.close()
					return nil, fail(path.Join(dir, name), "", 0, ErrCompressed)
				}
				rest = plain
				break
			}
		}
		if !archiveSuffix(rest) {
			continue
		}
		var f File
		var err error
		if unzip != nil {
			f, err = decompress(fsys, path.Join(dir, name), unzip, o.withDefaults().MaxDecompressed)
		} else {
			f, err = openFile(fsys, path.Join(dir, name), &c)
		}
		if err != nil {
			c.close()
			return nil, err
		}
		switch rest {
		case "meta":
			meta = &f
		case "index":
			index = &f
		default:
			vols = append(vols, f)
		}
	}
	if meta == nil {
		c.close()
		return nil, fail(base+".meta", "", 0, ErrNoFile)
	}
	a, err := Open(*meta, index, vols, o)
	if err != nil {
		c.close()
		return nil, err
	}
	a.closers = c
	return a, nil
}

// archiveSuffix reports whether s is "meta", "index" or a volume number.
func archiveSuffix(s string) bool {
	if s == "meta" || s == "index" {
		return true
	}
	_, err := strconv.ParseUint(s, 10, 31)
	return err == nil && s != "" && s[0] != '+'
}

// openFile opens name in fsys as a File.
func openFile(fsys fs.FS, name string, c *closers) (File, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return File{}, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return File{}, err
	}
	if ra, ok := f.(io.ReaderAt); ok {
		*c = append(*c, f)
		return File{Name: name, R: ra, Size: st.Size()}, nil
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return File{}, err
	}
	return BytesFile(name, b), nil
}

// decompress reads name in fsys through unzip, whole, up to max bytes.
func decompress(fsys fs.FS, name string, unzip Decompressor, max int64) (File, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return File{}, err
	}
	defer f.Close()
	r, err := unzip(f)
	if err != nil {
		return File{}, &ioError{file: name, err: err}
	}
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return File{}, &ioError{file: name, err: err}
	}
	if int64(len(b)) > max {
		return File{}, failValue(name, "decompressed size", 0, ErrLimit, int64(len(b)), max)
	}
	return BytesFile(name, b), nil
}

// closers are files an Archive opened and must close.
type closers []io.Closer

func (c closers) close() error {
	var errs []error
	for _, f := range c {
		errs = append(errs, f.Close())
	}
	return errors.Join(errs...)
}

// Close closes the files OpenFS opened; for an archive made by Open it
// does nothing (the caller owns the Files).
func (a *Archive) Close() error {
	err := a.closers.close()
	a.closers = nil
	return err
}
