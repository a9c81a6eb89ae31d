package archive

import "github.com/perfwire/perfwire/internal/wire"

// ParseError is the error of every decoder in this package: file, field,
// byte offset in that file, and the kind (see internal/wire).
type ParseError = wire.Error

// The kinds shared with every format.
var (
	ErrTruncated = &wire.Truncated
	ErrLimit     = &wire.Limit
	ErrLength    = &wire.Length
	ErrCount     = &wire.Count
	ErrTrailing  = &wire.Trailing
	ErrMagic     = &wire.Magic
	ErrVersion   = &wire.Version
	ErrType      = &wire.Type
	ErrRange     = &wire.Range
	ErrField     = &wire.Field
)

// Kinds only archives have.
var (
	// errFrame: a record's trailing length differs from its leading one.
	errFrame = wire.NewKind("archive_frame", "record trailer length differs from its header")
	// errLabelMismatch: a file's label disagrees with the .meta's label
	// (another archive's file, or a damaged label).
	errLabelMismatch = wire.NewKind("archive_label_mismatch", "label differs from the archive's")
	// ErrNoFile: a file the archive needs is missing.
	ErrNoFile = wire.NewKind("archive_no_file", "missing file")
	// ErrCompressed: a compressed file, which this build does not read.
	ErrCompressed = wire.NewKind("archive_compressed", "compressed file (decompress it first)")
	// ErrWriterDone: a [Writer] call after Finish. The *ParseError's
	// offset is the end of the last volume written.
	ErrWriterDone = wire.NewKind("archive_writer_done", "writer finished")
)

const format = "archive"

//
//go:noinline
func fail(file, field string, off int64, kind error) error {
	return &ParseError{File: file, Format: format, Field: field, Offset: off, Err: kind}
}

//
//go:noinline
func failValue(file, field string, off int64, kind error, value, limit int64) error {
	return &ParseError{File: file, Format: format, Field: field, Offset: off, Err: kind,
		Value: value, Limit: limit, HasValue: true, HasLimit: true}
}

// rebase turns an error of another package's decoder, whose offsets count
// from the start of the bytes it was given, into one that names file and
// counts from the start of the file (base is where those bytes began).
func rebase(err error, file string, base int64) error {
	// The decoders return their *wire.Error itself, never wrapped.
	if e, ok := err.(*wire.Error); ok {
		c := *e
		c.File = file
		c.Offset += base
		return &c
	}
	return err
}
