package archive

import (
	"errors"
	"io"
	"io/fs"
	"math"
	"path"
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
	files, c, err := filesFS(fsys, base, o)
	if err != nil {
		return nil, err
	}
	a, err := OpenFiles(files, o)
	if err != nil {
		c.close()
		return nil, err
	}
	a.closers = c
	return a, nil
}

// FilesFS returns the files of the archive named base in fsys, as OpenFS
// finds them (compressed ones decompressed, into memory or Options.Spill),
// for a caller that hands them on whole, such as to the wasm plugin;
// close releases them.
func FilesFS(fsys fs.FS, base string, o Options) (files []File, close func() error, err error) {
	files, c, err := filesFS(fsys, base, o)
	return files, c.close, err
}

func filesFS(fsys fs.FS, base string, o Options) ([]File, closers, error) {
	dir, stem := path.Split(base)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, nil, err
	}
	var c closers
	var files []File
	haveMeta := false
	for _, e := range ents {
		name := e.Name()
		rest, ok := strings.CutPrefix(name, stem+".")
		if !ok || e.IsDir() {
			continue
		}
		plain, suf := plainName(rest)
		if !archiveSuffix(plain) {
			continue
		}
		var f File
		var err error
		if suf == "" {
			f, err = openFile(fsys, path.Join(dir, name), &c)
		} else if unzip := o.Decompressors[suf]; unzip == nil {
			err = fail(path.Join(dir, name), "", 0, ErrCompressed)
		} else {
			f, err = decompress(fsys, path.Join(dir, name), unzip, o.withDefaults(), &c)
		}
		if err != nil {
			c.close()
			return nil, nil, err
		}
		haveMeta = haveMeta || plain == "meta"
		files = append(files, f)
	}
	if !haveMeta {
		c.close()
		return nil, nil, fail(base+".meta", "", 0, ErrNoFile)
	}
	return files, c, nil
}

// plainName splits a compressed suffix off an archive file's suffix
// ("0.xz" is "0" and ".xz").
func plainName(rest string) (plain, compressed string) {
	for _, suf := range compressedSuffixes {
		if p, ok := strings.CutSuffix(rest, suf); ok && archiveSuffix(p) {
			return p, suf
		}
	}
	return rest, ""
}

// OpenFiles opens an archive from its files, each known by its name's
// suffix (BASE.meta, BASE.index, BASE.N, or any of them with a compressed
// suffix, already decompressed); other files are ignored. It is Open for
// a caller that has the files, not their roles.
func OpenFiles(files []File, o Options) (*Archive, error) {
	var meta, index *File
	var vols []File
	for i := range files {
		// The role is the last suffix, or the one before a compressed
		// one: stems have dots too ("20180416.10.00.meta.xz").
		name := path.Base(files[i].Name)
		for _, suf := range compressedSuffixes {
			if p, ok := strings.CutSuffix(name, suf); ok {
				name = p
				break
			}
		}
		plain := name[strings.LastIndexByte(name, '.')+1:]
		switch {
		case plain == "meta":
			meta = &files[i]
		case plain == "index":
			index = &files[i]
		case archiveSuffix(plain):
			vols = append(vols, files[i])
		}
	}
	if meta == nil {
		return nil, fail("", "meta", 0, ErrNoFile)
	}
	return Open(*meta, index, vols, o)
}

// archiveSuffix reports whether s is "meta", "index" or a volume number.
func archiveSuffix(s string) bool {
	if s == "meta" || s == "index" {
		return true
	}
	// A volume number: decimal digits, below 2^31, what
	// strconv.ParseUint(s, 10, 31) takes; written out, so that strconv's
	// parsers and their errors are not linked (module size; see
	// wasm/size).
	n := uint64(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return false
		}
		if n = n*10 + uint64(c-'0'); n > math.MaxInt32 {
			return false
		}
	}
	return s != ""
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

// decompress reads name in fsys through unzip, whole (readDecompressed);
// a SpillFile it fills joins c.
func decompress(fsys fs.FS, name string, unzip Decompressor, o Options, c *closers) (File, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return File{}, err
	}
	defer f.Close()
	r, err := unzip(f)
	if err != nil {
		return File{}, &ioError{file: name, err: err}
	}
	if rc, ok := r.(io.Closer); ok {
		// A decoder's buffers go back as soon as the file is read.
		defer rc.Close()
	}
	file, sf, err := readDecompressed(name, r, o)
	if sf != nil {
		*c = append(*c, sf)
	}
	return file, err
}

// chunkSize is the piece a decompressed file is held in.
const chunkSize = 1 << 20

// chunksAt is a decompressed file held as chunks of chunkSize, the last
// one shorter; its ReadAt is bytesAt's across them.
type chunksAt struct {
	chunks [][]byte
	size   int64
}

func (c *chunksAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errNegativeOffset
	}
	if off >= c.size {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && off < c.size {
		b := c.chunks[off/chunkSize][off%chunkSize:]
		k := copy(p[n:], b)
		n += k
		off += int64(k)
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
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
