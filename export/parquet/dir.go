package parquet

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Dir is an export directory: one subdirectory per table, Hive
// partitions below it.
type Dir struct {
	Root string
	Options

	// create opens a new file for writing; tests replace it to simulate
	// a full disk.
	create func(dir, pattern string) (file, error)
}

// file is what an Output writes a table into.
type file interface {
	io.Writer
	Name() string
	Sync() error
	Close() error
}

// Stats count what an Output wrote.
type Stats struct {
	Files int   // files committed
	Rows  int64 // rows in them
	Bytes int64 // their size
}

// Output is the files one input adds to a Dir: part-ID.parquet in every
// partition its rows fall in. Nothing is visible in the Dir until Commit;
// Abort, or a failed Commit, removes what was written.
type Output struct {
	d       *Dir
	id      string
	pending []*pending
	Stats   Stats

	// Progress, if set, is told as the input is read: rows made and
	// input bytes consumed since the last call. Outputs of inputs read in
	// parallel may share counters behind it.
	Progress func(rows, bytes int64)
}

// pending is one file being written under a temporary name.
type pending struct {
	final string
	f     file
	n     *counter
	tab   interface{ close() error }
	rows  func() int64
}

// counter counts the bytes written through it.
type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Output starts the files of one input. id names them (part-ID.parquet):
// the same input exported again must be given the same id, so that its
// files replace the earlier ones.
func (d *Dir) Output(id string) *Output { return &Output{d: d, id: id} }

// open creates the temporary file that will become the n-th file of the
// partition rel, below the root: part-ID.parquet, then part-ID-N.parquet.
func (o *Output) open(rel string, n int) (*pending, error) {
	name := "part-" + o.id + ".parquet"
	if n > 0 {
		name = "part-" + o.id + "-" + strconv.Itoa(n) + ".parquet"
	}
	final := filepath.Join(o.d.Root, rel, name)
	dir := filepath.Dir(final)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	create := o.d.create
	if create == nil {
		create = func(dir, pattern string) (file, error) { return os.CreateTemp(dir, pattern) }
	}
	// A leading dot hides the file from readers' globs and from Spark,
	// which skip names starting with "." or "_".
	f, err := create(dir, ".part-"+o.id+"-*.tmp")
	if err != nil {
		return nil, err
	}
	p := &pending{final: final, f: f, n: &counter{w: f}}
	o.pending = append(o.pending, p)
	return p, nil
}

// finish writes the rest of the file of t (its last row group and
// footer) now, ahead of Commit, which then only syncs and renames it.
func (o *Output) finish(t interface{ close() error }) error {
	for _, p := range o.pending {
		if p.tab == t {
			p.tab = nil
			return t.close()
		}
	}
	return nil
}

// Commit finishes every file (last row group, footer, fsync) and then
// renames each into place, replacing the file of the previous export of
// the same input. If finishing any file fails, none is renamed and all
// are removed.
func (o *Output) Commit() error {
	var err error
	for _, p := range o.pending {
		if p.tab != nil {
			err = errors.Join(err, p.tab.close())
		}
		err = errors.Join(err, p.f.Sync(), p.f.Close())
		p.tab = nil
	}
	if err != nil {
		o.remove()
		return err
	}
	for _, p := range o.pending {
		if rerr := os.Rename(p.f.Name(), p.final); rerr != nil {
			err = errors.Join(err, rerr)
			os.Remove(p.f.Name())
			continue
		}
		o.Stats.Files++
		o.Stats.Rows += p.rows()
		o.Stats.Bytes += p.n.n
	}
	o.removeStale()
	o.pending = nil
	return err
}

// removeStale removes, from the partitions this export wrote, the
// part-ID-N.parquet files of an earlier export of the same input that
// this one did not write again.
func (o *Output) removeStale() {
	written := map[string]bool{}
	for _, p := range o.pending {
		written[p.final] = true
	}
	done := map[string]bool{}
	for _, p := range o.pending {
		dir := filepath.Dir(p.final)
		if done[dir] {
			continue
		}
		done[dir] = true
		old, _ := filepath.Glob(filepath.Join(dir, "part-"+o.id+"-*.parquet"))
		for _, f := range old {
			if !written[f] {
				os.Remove(f)
			}
		}
	}
}

// Abort removes every file written so far.
func (o *Output) Abort() {
	for _, p := range o.pending {
		p.f.Close()
	}
	o.remove()
}

func (o *Output) remove() {
	for _, p := range o.pending {
		os.Remove(p.f.Name())
	}
	o.pending = nil
}

// nsPerDay is a UTC day in nanoseconds.
const nsPerDay = int64(24 * time.Hour)

// parts routes the rows of one table to the file of their partition.
//
// Inputs are read in time order, so a day's partitions take no more rows
// once a later day's row has come: their files are finished then
// (written out, footer included) and their memory freed, so that what is
// held stays one row group per host of the current day, whatever the
// input's length. A row that comes later still for a finished partition
// starts another file there, part-ID-N.parquet.
type parts[T any] struct {
	o      *Output
	name   string
	size   func(*T) int64
	open   map[partKey]*table[T]
	files  map[partKey]int // files started in each partition
	last   partKey
	cur    *table[T]
	limit  int64
	day    int64 // the latest day seen, once cur is set
	closed int64 // rows in the files already finished
}

type partKey struct {
	host string
	day  int64 // days since 1970-01-01, UTC
}

func newParts[T any](o *Output, name string, size func(*T) int64) *parts[T] {
	return &parts[T]{o: o, name: name, size: size, open: map[partKey]*table[T]{}, files: map[partKey]int{},
		limit: o.d.rowGroupSize()}
}

// next returns the slot of a row in the partition of host and the UTC day
// of ns; the caller fills it and calls done.
func (p *parts[T]) next(host string, ns int64) (*T, error) {
	k := partKey{host: host, day: floorDiv(ns, nsPerDay)}
	if p.cur == nil || k != p.last {
		if p.cur == nil || k.day > p.day {
			p.day = k.day
			if err := p.finishBefore(k.day); err != nil {
				return nil, err
			}
		}
		t, ok := p.open[k]
		if !ok {
			n := p.files[k]
			f, err := p.o.open(p.rel(k), n)
			if err != nil {
				return nil, &WriteError{Err: err}
			}
			p.files[k] = n + 1
			t = newTable(f.n, p.limit, p.size)
			f.tab, f.rows = t, func() int64 { return t.rows }
			p.open[k] = t
		}
		p.cur, p.last = t, k
	}
	return p.cur.next(), nil
}

// finishBefore finishes the files of the partitions of days before day.
func (p *parts[T]) finishBefore(day int64) error {
	for k, t := range p.open {
		if k.day >= day {
			continue
		}
		delete(p.open, k)
		p.closed += t.rows
		if err := p.o.finish(t); err != nil {
			return &WriteError{Err: err}
		}
	}
	return nil
}

// rows counts the rows added to every partition.
func (p *parts[T]) rows() int64 {
	n := p.closed
	for _, t := range p.open {
		n += t.rows
	}
	return n
}

// done finishes the row next returned.
func (p *parts[T]) done(row *T) error {
	if err := p.cur.done(row); err != nil {
		return &WriteError{Err: err}
	}
	return nil
}

// WriteError is a failure to write the export (a full disk, a directory
// that cannot be made), as opposed to damage in the input, which the
// format packages report with its offset.
type WriteError struct{ Err error }

// Error names the step that failed and the cause.
func (e *WriteError) Error() string { return "parquet: writing: " + e.Err.Error() }

// Unwrap returns the cause, so errors.Is finds syscall.ENOSPC and the like.
func (e *WriteError) Unwrap() error { return e.Err }

// rel is the directory of a partition, relative to the root.
func (p *parts[T]) rel(k partKey) string {
	parts := p.o.d.Partition
	if parts == nil {
		parts = DefaultPartition
	}
	b := []byte(p.name)
	for _, key := range parts {
		switch key {
		case "host":
			b = append(b, "/host="...)
			b = appendHiveValue(b, k.host)
		case "date":
			b = append(b, "/date="...)
			b = time.Unix(k.day*86400, 0).UTC().AppendFormat(b, "2006-01-02")
		}
	}
	return filepath.FromSlash(string(b))
}

// appendHiveValue escapes a partition value as Hive does: bytes other than
// letters, digits and "-_." become %XX, so a host name cannot make a path
// or an equals sign of its own. An empty value is Hive's null partition.
func appendHiveValue(b []byte, s string) []byte {
	if s == "" {
		return append(b, "__HIVE_DEFAULT_PARTITION__"...)
	}
	const hex = "0123456789ABCDEF"
	for i := range len(s) {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.':
			b = append(b, c)
		default:
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	return b
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
