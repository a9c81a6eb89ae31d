// Package tracedir opens an LTT trace directory through io/fs: it reads
// info/system.xml and eventdefs/*.xml, applies the facility_load records
// of control/facilities, and exposes every cpu/<N> and control tracefile
// as an [ltt.Tracefile]. It works with os.DirFS, embed.FS, zip readers
// and in-memory maps alike, so it also runs under js and wasip1.
//
// Files are read whole into memory (bounded by Options.MaxFileSize); the
// decoding itself is done by package ltt over those bytes.
package tracedir

import (
	"bytes"
	"errors"
	"io/fs"
	"path"
	"slices"
	"strconv"

	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/ltt"
	"github.com/perfwire/perfwire/ltt/eventdefs"
)

// ErrLayout reports a missing required file or a file too large to read.
var ErrLayout = errors.New("tracedir: bad trace directory")

// Options tune how a trace is opened.
type Options struct {
	// Version forces a trailer rule; the default detects it per block.
	Version ltt.Version
	// MicroTime corrects the microseconds that v1 converter output
	// stored in block records' nanoseconds (true for smp_example).
	MicroTime bool
	// MaxFileSize bounds every file read; 0 means 1 GiB.
	MaxFileSize int64
}

// Tracefile is one tracefile of the directory.
type Tracefile struct {
	// Name is the path inside the trace, e.g. "cpu/0" or
	// "control/facilities".
	Name string
	// CPU is N for cpu/N, -1 for control files.
	CPU int
	// Data is the whole file.
	Data []byte
	*ltt.Tracefile
}

// Trace is an opened trace directory.
type Trace struct {
	System     eventdefs.System
	Facilities []*ltt.Facility // load order: files in name order, facilities in file order
	Reader     *ltt.Reader
	CPUs       []Tracefile // sorted by CPU number
	Control    []Tracefile // facilities, interrupts, processes, when present

	mergeErr error
}

// Open reads the trace rooted at fsys. It fails with [ErrLayout] when
// info/system.xml or every eventdefs file is missing, with the eventdefs
// package's errors for bad descriptions, and with [ltt.ErrFacility] when
// a facility_load record matches no facility by name and checksum. A
// trace whose eventdefs lack a core facility gets [ltt.Core] first.
func Open(fsys fs.FS, o Options) (*Trace, error) {
	if o.MaxFileSize <= 0 {
		o.MaxFileSize = 1 << 30
	}
	read := func(name string) ([]byte, error) {
		st, err := fs.Stat(fsys, name)
		if err != nil {
			return nil, err
		}
		if st.Size() > o.MaxFileSize {
			return nil, wire.NewError("tracedir", name, 0, ErrLayout)
		}
		return fs.ReadFile(fsys, name)
	}
	t := &Trace{}
	src, err := read("info/system.xml")
	if err != nil {
		return nil, err
	}
	if t.System, err = eventdefs.ParseSystem(src); err != nil {
		return nil, err
	}
	cfg, err := t.System.Config()
	if err != nil {
		return nil, err
	}
	cfg.Version, cfg.MicroTime = o.Version, o.MicroTime
	defs, err := fs.ReadDir(fsys, "eventdefs")
	if err != nil {
		return nil, err
	}
	hasCore := false
	for _, d := range defs {
		if d.IsDir() || path.Ext(d.Name()) != ".xml" {
			continue
		}
		src, err := read("eventdefs/" + d.Name())
		if err != nil {
			return nil, err
		}
		fs, err := eventdefs.Parse(src)
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			hasCore = hasCore || f.Name == "core"
		}
		t.Facilities = append(t.Facilities, fs...)
	}
	if !hasCore {
		t.Facilities = append([]*ltt.Facility{ltt.Core()}, t.Facilities...)
	}
	if t.Control, err = readDir(fsys, "control", -1, read); err != nil {
		return nil, err
	}
	// facility_load records can only be read with the facilities at base
	// 0, where core (and so id 0) sits.
	if t.Reader, err = ltt.NewReader(cfg, t.Facilities...); err != nil {
		return nil, err
	}
	for _, c := range t.Control {
		if c.Name == "control/facilities" {
			if err := t.applyLoads(c.Data); err != nil {
				return nil, err
			}
		}
	}
	if t.Reader, err = ltt.NewReader(cfg, t.Facilities...); err != nil {
		return nil, err
	}
	for i := range t.Control {
		c := &t.Control[i]
		c.Tracefile = t.Reader.Tracefile(bytes.NewReader(c.Data), int64(len(c.Data)))
	}
	if t.CPUs, err = readDir(fsys, "cpu", 0, read); err != nil {
		return nil, err
	}
	for i := range t.CPUs {
		c := &t.CPUs[i]
		c.Tracefile = t.Reader.Tracefile(bytes.NewReader(c.Data), int64(len(c.Data)))
	}
	return t, nil
}

// readDir reads the regular files of dir. For cpu/ only decimal names
// count (LTTV parsed the name as the CPU number; .svn and the like are
// skipped); for control/ only the three known names.
func readDir(fsys fs.FS, dir string, cpu int, read func(string) ([]byte, error)) ([]Tracefile, error) {
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
		data, err := read(dir + "/" + e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, Tracefile{Name: dir + "/" + e.Name(), CPU: n, Data: data})
	}
	slices.SortStableFunc(out, func(a, b Tracefile) int { return a.CPU - b.CPU })
	return out, nil
}

// applyLoads sets facility bases from the facility_load events of
// control/facilities.
// Loaded facilities must not overlap each other or core's ids, since the
// records exist precisely to give each facility its own range.
func (t *Trace) applyLoads(data []byte) error {
	var placed []*ltt.Facility
	for _, f := range t.Facilities {
		if f.Name == "core" {
			placed = append(placed, f)
		}
	}
	tf := t.Reader.Tracefile(bytes.NewReader(data), int64(len(data)))
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
