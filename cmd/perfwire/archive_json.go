package main

import (
	"fmt"
	"io"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/render"
	"github.com/perfwire/perfwire/schema"
)

// archiveJSON prints every data record as one JSON line of the shared
// schema (schema.ArchiveRecord), from the bytes archive_next's writer
// (render.AppendArchiveRecord) gives it.
func archiveJSON(w io.Writer, a *archive.Archive, name string) error {
	j := jsonLines{w: w}
	s := a.NewScanner()
	p := archiveProgress(name, a)
	defer p.finish()
	var buf []byte
	for s.Next() {
		p.at(s.Record())
		buf = render.AppendArchiveRecord(buf[:0], a, s.Record())
		if err := j.raw(buf); err != nil {
			return err
		}
	}
	warnSkipped(name, s.Skipped())
	if err := s.Err(); err != nil {
		return &inputError{file: name, err: err}
	}
	return nil
}

// archiveJSONPlugin is archiveJSON with the reading done in the plugin:
// the archive's files (decompressed, as the native reader sees them) go
// to archive_open whole, and archive_next hands back its records in the
// same schema, a batch at a time.
func archiveJSONPlugin(w io.Writer, arg string) error {
	files, closeFiles, err := archive.FilesFS(mapFS{}, archiveBase(arg), archiveOptions)
	if err != nil {
		return &inputError{file: arg, err: err}
	}
	defer closeFiles()
	in := schema.ArchiveInput{Names: make([]string, len(files)), Files: make([][]byte, len(files))}
	for i, f := range files {
		b := make([]byte, f.Size)
		if _, err := f.R.ReadAt(b, 0); err != nil && err != io.EOF {
			return &inputError{file: f.Name, err: err}
		}
		in.Names[i], in.Files[i] = f.Name, b
	}
	msg, err := in.MarshalMsg(nil)
	if err != nil {
		return err
	}
	h, err := plugin.put(msg)
	if err != nil {
		return err
	}
	s, err := plugin.open(opArchiveOpen, h)
	plugin.free(h)
	if err != nil {
		return err
	}
	defer plugin.free(s)
	j := jsonLines{w: w}
	for {
		var res schema.ArchiveRead
		if err := plugin.call(opArchiveNext, s, 0, &res); err != nil {
			return err
		}
		for _, r := range res.Records {
			if err := j.raw(r); err != nil {
				return err
			}
		}
		if res.Done {
			warnSkipped(arg, res.Skipped)
			if res.Error != nil {
				return &inputError{file: arg, err: errOf(res.Error)}
			}
			return nil
		}
	}
}

// warnSkipped says on stderr how many records a scan passed over for
// being out of time order, which pmdumplog passes over without a word.
func warnSkipped(name string, n int) {
	if n > 0 {
		fmt.Fprintf(diag, "perfwire archive: %s: passed over %d records earlier than the record before them (pmlogcheck reports them)\n", name, n)
	}
}
