package archive

import (
	"io"

	"github.com/perfwire/perfwire/internal/wire"
)

// Options bound what reading an archive may cost. Each zero field means
// its default.
type Options struct {
	// MaxRecordLen is the largest record accepted, framing included. A
	// larger length is reported as ErrLimit before anything is allocated.
	MaxRecordLen int
	// MaxInstances bounds the instances held for all instance domain
	// records together (a delta record counts the whole domain it
	// yields).
	MaxInstances int
	// MaxMetaRecords bounds the number of .meta records.
	MaxMetaRecords int

	// KeepOutOfOrder makes a Scanner return records that are earlier than
	// the one before them; by default it passes over them as libpcp does
	// and counts them (Scanner.Skipped).
	KeepOutOfOrder bool

	// Decompressors open the compressed files OpenFS finds, by suffix
	// (".xz", ".zst", ".gz", ".bz2", ...). A compressed file is read whole
	// through its decompressor, up to MaxDecompressed bytes, into memory
	// or, past SpillAbove bytes, into a file from Spill; one without a
	// decompressor is ErrCompressed. The package has none of its own, so
	// that a build carries only the codecs its caller names.
	Decompressors map[string]Decompressor
	// MaxDecompressed bounds the size of a decompressed file.
	MaxDecompressed int64
	// Spill, when set, gives a decompressed file larger than SpillAbove
	// its place outside memory, such as a temporary file: the archive's
	// reader needs to read at any offset (a volume's end first), which a
	// decompressor's stream cannot. Without it a decompressed file is held
	// in memory whole. The archive closes the SpillFile on Close, or when
	// opening fails.
	Spill func() (SpillFile, error)
	// SpillAbove is the size past which a decompressed file goes to Spill;
	// smaller ones (.meta files, short volumes) stay in memory.
	SpillAbove int64
}

// SpillFile holds a decompressed file written once, from its start, then
// read at any offset.
type SpillFile interface {
	io.Writer
	io.ReaderAt
	io.Closer
}

// Decompressor returns the decompressed contents of r.
type Decompressor func(r io.Reader) (io.Reader, error)

// Defaults of Options.
const (
	DefaultMaxRecordLen   = 64 << 20
	DefaultMaxInstances   = 1 << 24
	DefaultMaxMetaRecords = 1 << 24
	// DefaultMaxDecompressed is above pmlogger's 2 GiB volume limit of
	// version 2 archives, less than a 64-bit host can hold.
	DefaultMaxDecompressed = 4 << 30
	// DefaultSpillAbove keeps a day's .meta in memory and sends a volume
	// of tens of megabytes, one per export worker, to Spill.
	DefaultSpillAbove = 4 << 20
)

func (o Options) withDefaults() Options {
	o.MaxRecordLen = wire.Default(o.MaxRecordLen, DefaultMaxRecordLen)
	o.MaxInstances = wire.Default(o.MaxInstances, DefaultMaxInstances)
	o.MaxMetaRecords = wire.Default(o.MaxMetaRecords, DefaultMaxMetaRecords)
	o.MaxDecompressed = wire.Default(o.MaxDecompressed, DefaultMaxDecompressed)
	o.SpillAbove = wire.Default(o.SpillAbove, DefaultSpillAbove)
	return o
}
