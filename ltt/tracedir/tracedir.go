// Package tracedir opens an LTT trace directory through io/fs: it reads
// info/system.xml and eventdefs/*.xml, applies the facility_load records
// of control/facilities, and exposes every cpu/<N> and control tracefile
// as an [ltt.Tracefile]. It works with os.DirFS, embed.FS, zip readers
// and in-memory maps alike, so it also runs under js and wasip1.
//
// Tracefiles are read a block at a time through io.ReaderAt when the
// file system's files offer it (os.DirFS does), so memory is bounded by
// the block size times the number of open tracefiles, not by the files'
// sizes; a Trace then holds its files open until Close. Files of a file
// system without ReadAt (a zip, a map) are read whole, bounded by
// Options.MaxFileSize. A tracefile whose size is not a whole number of
// blocks is reported in Trace.Damage: its cut-short last block is not
// read. Errors name the file they come from (wire.Error's File).
package tracedir

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"

	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/ltt"
	"github.com/perfwire/perfwire/ltt/eventdefs"
)

// errLayout reports a missing required file or a file too large to read.
var errLayout = wire.NewKind("tracedir_layout", "bad trace directory")

// Options tune how a trace is opened.
type Options struct {
	// Version forces a trailer rule; the default detects it per block.
	Version ltt.Version
	// MicroTime corrects the microseconds that v1 converter output
	// stored in block records' nanoseconds (true for smp_example).
	MicroTime bool
	// MaxFileSize bounds every file read whole (the XML files, and
	// tracefiles of a file system without ReadAt); 0 means 1 GiB.
	MaxFileSize int64
}

// Tracefile is one tracefile of the directory.
type Tracefile struct {
	// Name is the path inside the trace, e.g. "cpu/0" or
	// "control/facilities".
	Name string
	// CPU is N for cpu/N, -1 for control files.
	CPU int
	// Size is the file's length in bytes.
	Size int64
	*ltt.Tracefile
	src io.ReaderAt
}

// Damage is a tracefile cut short: its size is not a whole number of
// blocks, so the bytes after the last whole block (a block cut off while
// it was written, or a truncated copy) are not read.
type Damage struct {
	File      string // e.g. "cpu/1"
	Size      int64  // the file's length
	BlockSize int    // the trace's block size
}

// Blocks is the number of whole blocks read.
func (d Damage) Blocks() int64 { return d.Size / int64(d.BlockSize) }

// Lost is the number of bytes after the last whole block.
func (d Damage) Lost() int64 { return d.Size % int64(d.BlockSize) }

// String says what was lost, for a warning.
func (d Damage) String() string {
	b := append([]byte(d.File), ": "...)
	b = strconv.AppendInt(b, d.Size, 10)
	b = append(b, " bytes is not a whole number of "...)
	b = strconv.AppendInt(b, int64(d.BlockSize), 10)
	b = append(b, "-byte blocks: "...)
	b = strconv.AppendInt(b, d.Blocks(), 10)
	b = append(b, " blocks read, the last "...)
	b = strconv.AppendInt(b, d.Lost(), 10)
	b = append(b, " bytes (a block cut short) not read; the file may have been truncated"...)
	return string(b)
}

// Trace is an opened trace directory.
type Trace struct {
	System     eventdefs.System
	Facilities []*ltt.Facility // load order: files in name order, facilities in file order
	Decoder    *ltt.Decoder
	CPUs       []Tracefile // sorted by CPU number
	Control    []Tracefile // facilities, interrupts, processes, when present
	// Damage lists the tracefiles cut short, in the order of Control then
	// CPUs; their whole blocks are read as usual.
	Damage []Damage

	closers  []io.Closer
	mergeErr error
}

// Close closes the tracefiles Open left open for reading.
func (t *Trace) Close() error {
	var first error
	for _, c := range t.closers {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	t.closers = nil
	return first
}

// fileError ties an error that is not a wire.Error to the file it came
// from.
type fileError struct {
	file string
	err  error
}

func (e *fileError) Error() string { return e.file + ": " + e.err.Error() }
func (e *fileError) Unwrap() error { return e.err }

// inFile names the trace file an error came from.
func inFile(name string, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := errors.AsType[*wire.Error](err); ok {
		return wire.InFile(err, name)
	}
	if pe, ok := errors.AsType[*fs.PathError](err); ok && pe.Path == name {
		return err
	}
	return &fileError{file: name, err: err}
}

// Open reads the trace rooted at fsys. It fails with the kind "tracedir_layout" when
// info/system.xml or every eventdefs file is missing, with the eventdefs
// package's errors for bad descriptions, and with [ltt.ErrFacility] when
// a facility_load record matches no facility by name and checksum, each
// naming the file. A trace whose eventdefs lack a core facility gets
// [ltt.Core] first. Close the Trace when done with it.
func Open(fsys fs.FS, o Options) (*Trace, error) {
	t := &Trace{}
	if err := t.open(fsys, o); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

func (t *Trace) open(fsys fs.FS, o Options) error {
	if o.MaxFileSize <= 0 {
		o.MaxFileSize = 1 << 30
	}
	read := func(name string) ([]byte, error) {
		st, err := fs.Stat(fsys, name)
		if err != nil {
			return nil, err
		}
		if st.Size() > o.MaxFileSize {
			return nil, wire.NewValueError("tracedir", name, 0, errLayout, st.Size(), o.MaxFileSize)
		}
		return fs.ReadFile(fsys, name)
	}
	src, err := read("info/system.xml")
	if err != nil {
		return err
	}
	if t.System, err = eventdefs.ParseSystem(src); err != nil {
		return inFile("info/system.xml", err)
	}
	cfg, err := t.System.Options()
	if err != nil {
		return inFile("info/system.xml", err)
	}
	cfg.Version, cfg.MicroTime = o.Version, o.MicroTime
	defs, err := fs.ReadDir(fsys, "eventdefs")
	if err != nil {
		return err
	}
	hasCore := false
	for _, d := range defs {
		if d.IsDir() || path.Ext(d.Name()) != ".xml" {
			continue
		}
		src, err := read("eventdefs/" + d.Name())
		if err != nil {
			return err
		}
		fs, err := eventdefs.Parse(src, eventdefs.Options{})
		if err != nil {
			return inFile("eventdefs/"+d.Name(), err)
		}
		for _, f := range fs {
			hasCore = hasCore || f.Name == "core"
		}
		t.Facilities = append(t.Facilities, fs...)
	}
	if !hasCore {
		t.Facilities = append([]*ltt.Facility{ltt.Core()}, t.Facilities...)
	}
	// facility_load records can only be read with the facilities at base
	// 0, where core (and so id 0) sits.
	if t.Decoder, err = ltt.NewDecoder(cfg, t.Facilities...); err != nil {
		return inFile("info/system.xml", err)
	}
	if t.Control, err = t.openDir(fsys, "control", -1, o.MaxFileSize); err != nil {
		return err
	}
	for i := range t.Control {
		t.Control[i].Tracefile = t.Decoder.Tracefile(t.Control[i].src, t.Control[i].Size)
	}
	for _, c := range t.Control {
		if c.Name == "control/facilities" {
			if err := t.applyLoads(c.Tracefile); err != nil {
				return inFile(c.Name, err)
			}
		}
	}
	// Now with the loaded bases: the tracefiles read through this one.
	if t.Decoder, err = ltt.NewDecoder(cfg, t.Facilities...); err != nil {
		return err
	}
	for i := range t.Control {
		t.Control[i].Tracefile = t.Decoder.Tracefile(t.Control[i].src, t.Control[i].Size)
	}
	if t.CPUs, err = t.openDir(fsys, "cpu", 0, o.MaxFileSize); err != nil {
		return err
	}
	for i := range t.CPUs {
		t.CPUs[i].Tracefile = t.Decoder.Tracefile(t.CPUs[i].src, t.CPUs[i].Size)
	}
	for _, c := range append(slices.Clip(t.Control), t.CPUs...) {
		if c.Size%int64(cfg.BlockSize) != 0 {
			t.Damage = append(t.Damage, Damage{File: c.Name, Size: c.Size, BlockSize: cfg.BlockSize})
		}
	}
	return nil
}

// openDir opens the regular files of dir for reading. For cpu/ only
// decimal names count (LTTV parsed the name as the CPU number; .svn and
// the like are skipped); for control/ only the three known names. A file
// that offers ReadAt stays open and is read a block at a time; any other
// is read whole, up to maxSize.
func (t *Trace) openDir(fsys fs.FS, dir string, cpu int, maxSize int64) ([]Tracefile, error) {
	ents, err := fs.ReadDir(fsys, dir)
	if errors.Is(err, fs.ErrNotExist) && dir == "control" {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Tracefile
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		n := -1
		if cpu >= 0 {
			v, err := strconv.Atoi(e.Name())
			if err != nil || v < 0 {
				continue
			}
			n = v
		} else if e.Name() != "facilities" && e.Name() != "interrupts" && e.Name() != "processes" {
			continue
		}
		name := dir + "/" + e.Name()
		f, err := fsys.Open(name)
		if err != nil {
			return nil, err
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		tf := Tracefile{Name: name, CPU: n, Size: st.Size()}
		if ra, ok := f.(io.ReaderAt); ok {
			tf.src = ra
			t.closers = append(t.closers, f)
		} else {
			if st.Size() > maxSize {
				f.Close()
				return nil, wire.NewValueError("tracedir", name, 0, errLayout, st.Size(), maxSize)
			}
			data, err := io.ReadAll(io.LimitReader(f, maxSize+1))
			f.Close()
			if err != nil {
				return nil, err
			}
			tf.src, tf.Size = bytes.NewReader(data), int64(len(data))
		}
		out = append(out, tf)
	}
	slices.SortStableFunc(out, func(a, b Tracefile) int { return a.CPU - b.CPU })
	return out, nil
}

// applyLoads sets facility bases from the facility_load events of
// control/facilities.
// Loaded facilities must not overlap each other or core's ids, since the
// records exist precisely to give each facility its own range.
func (t *Trace) applyLoads(tf *ltt.Tracefile) error {
	var placed []*ltt.Facility
	for _, f := range t.Facilities {
		if f.Name == "core" {
			placed = append(placed, f)
		}
	}
	for blk, err := range tf.Blocks() {
		if err != nil {
			return err
		}
		for ev, err := range blk.Events() {
			if err != nil {
				return err
			}
			if ev.ID != ltt.IDFacilityLoad {
				continue
			}
			name, _ := ev.Field("name")
			sum, _ := ev.Field("checksum")
			base, _ := ev.Field("base_code")
			f := t.find(string(name.Text()), uint32(sum.Uint()))
			if f == nil || base.Uint() > 0xffff {
				return wire.NewError("tracedir", "facility_load", ev.Offset, ltt.ErrFacility)
			}
			f.Base = uint16(base.Uint())
			for _, g := range placed {
				if g != f && int(f.Base) < int(g.Base)+len(g.Events) && int(g.Base) < int(f.Base)+len(f.Events) {
					return wire.NewError("tracedir", "facility_load", ev.Offset, ltt.ErrFacility)
				}
			}
			placed = append(placed, f)
		}
	}
	return nil
}

func (t *Trace) find(name string, sum uint32) *ltt.Facility {
	for _, f := range t.Facilities {
		if f.Name == name && f.Checksum() == sum {
			return f
		}
	}
	return nil
}
