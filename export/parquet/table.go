package parquet

import (
	"io"

	"github.com/parquet-go/parquet-go"
)

// batch is how many rows are handed to the encoder at once: enough to
// amortise its per-call work, few enough that the copy held is small.
const batch = 1024

// table writes rows of type T into one Parquet file, ending a row group
// whenever the rows written since the last one reach limit bytes (as
// size estimates them).
type table[T any] struct {
	w     *parquet.GenericWriter[T]
	size  func(*T) int64
	buf   []T
	group int64 // estimated bytes in the open row group
	limit int64
	rows  int64
}

// zstdCodec is shared by every writer: the codec holds no per-file state.
var zstdCodec = &pageCodec{}

func newTable[T any](out io.Writer, limit int64, size func(*T) int64) *table[T] {
	w := parquet.NewGenericWriter[T](out,
		parquet.Compression(zstdCodec),
		parquet.CreatedBy("perfwire", "", ""),
		// Version 1 data pages: version 2 leaves the repetition and
		// definition levels uncompressed, and the labels map's levels
		// (0,1,1,0,1,1, … a bit per entry) then outweigh all but the
		// value columns.
		parquet.DataPageVersion(1),
	)
	return &table[T]{w: w, size: size, limit: limit, buf: make([]T, 0, batch)}
}

// next returns the slot of the next row, zeroed. The caller fills it in
// place (its pointer fields may point into the row itself: the slot does
// not move until the batch is encoded) and then calls done.
func (t *table[T]) next() *T {
	t.buf = t.buf[:len(t.buf)+1]
	return &t.buf[len(t.buf)-1]
}

// done counts the row next returned and encodes the batch when it is full.
func (t *table[T]) done(row *T) error {
	t.group += t.size(row)
	t.rows++
	if len(t.buf) == cap(t.buf) {
		if err := t.drain(); err != nil {
			return err
		}
	}
	if t.group >= t.limit {
		if err := t.drain(); err != nil {
			return err
		}
		t.group = 0
		return t.w.Flush()
	}
	return nil
}

func (t *table[T]) drain() error {
	if len(t.buf) == 0 {
		return nil
	}
	_, err := t.w.Write(t.buf)
	clear(t.buf) // drop the references to strings and maps
	t.buf = t.buf[:0]
	return err
}

// close writes the last row group and the footer, and lets go of the
// writer: the row count stays wanted until Commit, its buffers do not.
func (t *table[T]) close() error {
	err := t.drain()
	if err == nil {
		err = t.w.Close()
	}
	t.w, t.buf = nil, nil
	return err
}
