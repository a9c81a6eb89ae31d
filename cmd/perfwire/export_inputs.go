package main

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/export/parquet"
	"github.com/perfwire/perfwire/mmv"
)

// isArchiveInput reports whether in names a PCP archive: one of its
// files, compressed or not, or its base name with a .meta beside it.
func isArchiveInput(in string) bool {
	name := in
	for _, suf := range []string{".xz", ".zst", ".gz", ".bz2", ".lz4"} {
		name = strings.TrimSuffix(name, suf)
	}
	if strings.HasSuffix(name, ".meta") || strings.HasSuffix(name, ".index") {
		return true
	}
	if i := strings.LastIndexByte(name, '.'); i > 0 && allDigits(name[i+1:]) {
		if matches, _ := filepath.Glob(name[:i] + ".meta*"); len(matches) > 0 {
			return true
		}
	}
	matches, _ := filepath.Glob(in + ".meta*")
	return len(matches) > 0
}

// archiveFiles is the size of an archive's files as they are on disk.
func archiveFilesSize(in string) int64 {
	base := in
	for _, suf := range []string{".xz", ".zst", ".gz", ".bz2", ".lz4"} {
		base = strings.TrimSuffix(base, suf)
	}
	base = archiveBase(base)
	matches, _ := filepath.Glob(base + ".*")
	var n int64
	for _, m := range matches {
		rest := strings.TrimPrefix(m, base+".")
		if i := strings.IndexByte(rest, '.'); i >= 0 {
			rest = rest[:i]
		}
		if rest != "meta" && rest != "index" && !allDigits(rest) {
			continue
		}
		if st, err := os.Stat(m); err == nil {
			n += st.Size()
		}
	}
	return n
}

// exportInput writes the tables of one input into o and returns the rows
// made and the input's size. Damage is an *inputError (what came before
// it is in o); a failure to write is a *writeError.
func exportInput(o *parquet.Output, in, host string) (int64, int64, error) {
	if isArchiveInput(in) {
		size := archiveFilesSize(in)
		a, err := archive.OpenFS(fileFS{}, archiveBase(archiveArg(in)), archiveOptions)
		if err != nil {
			return 0, size, &inputError{file: archiveArg(in), err: err}
		}
		defer a.Close()
		rows, err := o.Archive(a, filepath.Base(archiveBase(archiveArg(in))), host)
		return rows, size, classify(in, err)
	}
	if isMMVInput(in) {
		return exportMMV(o, in, host)
	}
	return exportDLT(o, in, host)
}

// isMMVInput reports whether in starts as an MMV file does ("MMV\0").
func isMMVInput(in string) bool {
	f, err := os.Open(in)
	if err != nil {
		return false
	}
	defer f.Close()
	var head [4]byte
	n, _ := io.ReadFull(f, head[:])
	return n == 4 && string(head[:]) == "MMV\x00"
}

// exportMMV writes an MMV file's values as they are in the file now,
// stamped with its modification time. The host column is --host, else
// this machine's name: MMV files are read where their writers run.
func exportMMV(o *parquet.Output, in, host string) (int64, int64, error) {
	b, err := os.ReadFile(in)
	if err != nil {
		return 0, 0, &inputError{file: in, err: err}
	}
	st, err := os.Stat(in)
	if err != nil {
		return 0, int64(len(b)), &inputError{file: in, err: err}
	}
	f, err := mmv.Parse(b, mmv.Options{SkipRefused: true})
	if err != nil {
		return 0, int64(len(b)), &inputError{file: in, err: err}
	}
	if host == "" {
		host, _ = os.Hostname()
	}
	rows, err := o.MMV(&f, filepath.Base(in), host, st.ModTime().UnixNano())
	if o.Progress != nil {
		o.Progress(rows, int64(len(b)))
	}
	return rows, int64(len(b)), classify(in, err)
}

// archiveArg is the name openArchive takes for in: a compressed file's
// name without its suffix.
func archiveArg(in string) string {
	for _, suf := range []string{".xz", ".zst", ".gz", ".bz2", ".lz4"} {
		if s, ok := strings.CutSuffix(in, suf); ok {
			return s
		}
	}
	return in
}

// classify tells damage in the input (from the format packages, with
// offsets) from a failure to write the export.
func classify(in string, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := errors.AsType[*parquet.WriteError](err); ok {
		return &writeError{file: in, err: err}
	}
	if _, ok := errors.AsType[*inputError](err); ok {
		return err
	}
	return &inputError{file: in, err: err}
}

// exportDLT writes a DLT file's messages and, when it carries dlt-kpi
// messages, the process and interrupt tables.
func exportDLT(o *parquet.Output, in, host string) (int64, int64, error) {
	f, err := os.Open(in)
	if err != nil {
		return 0, 0, &inputError{file: in, err: err}
	}
	defer f.Close()
	var size int64
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	br := bufio.NewReaderSize(f, 1<<16)
	head, _ := br.Peek(4)
	r := dlt.NewReader(br, dlt.Options{Framing: framingOf(head)})
	rows, err := o.DLT(r, filepath.Base(in), host)
	if n := r.Skipped(); n > 0 {
		reportSkipped(in, n, r.Resyncs(), r.SkipError())
	}
	return rows, size, classify(in, err)
}

// fileFS is the local file system read with pread, not mapped: an export
// reads each volume once from start to end, and a mapping would keep
// every page it touched resident (counted in the process's RSS) until the
// archive is closed, so peak RSS would grow with the archive's length.
// Read through the page cache, the kernel reclaims what was read.
type fileFS struct{}

func (fileFS) Open(name string) (fs.File, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || st.IsDir() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	return f, nil
}

func (fileFS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }
