package archive

import (
	"cmp"

	"github.com/perfwire/perfwire/pcp"
)

// Archive is an opened archive: its label, its metadata and its data
// volumes. It reads the volumes on demand; it is safe for concurrent use
// by several Scanners, as long as the Files' ReadAt is (it is for
// *os.File, mapped files and bytes.Reader).
type Archive struct {
	Label Label // the .meta's label (Vol is VolMeta)
	Meta  *Meta

	vols     []volume // in volume order
	index    *File
	o        Options
	closers  closers
	metaSize int64
}

// volume is one data volume and where its records begin.
type volume struct {
	_ [0]func() // not comparable: no equality function in the wasm build
	File
	num   int32
	first int64 // the offset of the first record, after the label
}

// Open reads the label and the metadata of an archive and the labels of
// its data volumes. index may be nil (it is optional for reading); vols
// may come in any order and may skip numbers, as libpcp allows. Every
// label must agree with the .meta's (errLabelMismatch), and a damaged
// .meta is an error: the records a reader would need are not all there.
func Open(meta File, index *File, vols []File, o Options) (*Archive, error) {
	o = o.withDefaults()
	l, first, err := readLabel(meta)
	if err != nil {
		return nil, err
	}
	if l.Vol != VolMeta {
		return nil, failValue(meta.Name, "label.vol", volOffset(l.Version), errLabelMismatch, int64(l.Vol), VolMeta)
	}
	a := &Archive{Label: l, o: o, metaSize: meta.Size}
	// Every record of the .meta after its label, read here rather than
	// by a function of its own, as metaParser.record reads a descriptor.
	m := &Meta{byPMID: map[pcp.ID]int{}, byName: map[string]int{}, byDom: map[pcp.InDom][]int{},
		text: map[[2]uint32]int{}}
	p := metaParser{m: m, v: l.Version, file: meta.Name, o: o, current: map[pcp.InDom]int{}}
	r := frames{lenField: "record.len"}
	off := first
	for n := 0; off < meta.Size; n++ {
		if n >= o.MaxMetaRecords {
			return nil, failValue(meta.Name, "meta", off, ErrLimit, int64(n)+1, int64(o.MaxMetaRecords))
		}
		var rec []byte
		if _, rec, err = r.record(&meta, off, 0, o.MaxRecordLen); err != nil {
			return nil, err
		}
		if err := p.record(rec, off); err != nil {
			return nil, err
		}
		off += int64(len(rec))
	}
	if len(m.Metrics) == 0 {
		// libpcp refuses an archive without one descriptor.
		return nil, failValue(meta.Name, "meta", off, ErrCount, 0, 1)
	}
	p.finish()
	a.Meta = m
	// The index's label (k −1) is read and checked by the volumes' loop,
	// not by a second copy of it (module size; see wasm/size).
	read := make([]volume, 0, len(vols))
	for k := -1; k < len(vols); k++ {
		f := index
		if k >= 0 {
			f = &vols[k]
		} else if index == nil {
			continue
		}
		vl, n, err := readLabel(*f)
		if err != nil {
			return nil, err
		}
		if k < 0 && vl.Vol != VolIndex || k >= 0 && vl.Vol < 0 || !sameArchive(vl, l) {
			return nil, fail(f.Name, "label", 0, errLabelMismatch)
		}
		if k < 0 {
			a.index = index
			continue
		}
		read = append(read, volume{File: *f, num: vl.Vol, first: n})
	}
	// The volumes in number order, sorted through their indexes: the
	// metadata reader's sort of indexes serves here too: one sort
	// linked, not one per element type (module size; see wasm/size).
	order := make([]int, len(read))
	for i := range order {
		order[i] = i
	}
	sortStable(order, func(x, y int) int { return cmp.Compare(read[x].num, read[y].num) })
	for _, i := range order {
		a.vols = append(a.vols, read[i])
	}
	for i := 1; i < len(a.vols); i++ {
		if a.vols[i].num == a.vols[i-1].num {
			return nil, failValue(a.vols[i].Name, "label.vol", volOffset(l.Version), errLabelMismatch,
				int64(a.vols[i].num), int64(a.vols[i].num)+1)
		}
	}
	return a, nil
}

// volOffset is the label's vol field offset in version v.
func volOffset(v int) int64 {
	if v == 3 {
		return 24
	}
	return 20
}

// Volumes returns the numbers of the data volumes, in order.
func (a *Archive) Volumes() []int {
	out := make([]int, len(a.vols))
	for i, v := range a.vols {
		out[i] = int(v.num)
	}
	return out
}

// End returns the time of the last record of the last volume that has
// one (pmGetArchiveEnd). It reads backwards from the volume's end; when
// the tail is damaged it reads the volume forwards and takes the last
// sound record before the damage, as libpcp does. A volume without a
// sound record passes the question to the one before it; the error is
// the damage found when no volume has one.
func (a *Archive) End() (Timestamp, error) {
	var first error
	for i := len(a.vols) - 1; i >= 0; i-- {
		v := &a.vols[i]
		if v.Size <= v.first {
			continue
		}
		rec, _, err := readRecordBack(v.File, v.Size, v.first, a.o.MaxRecordLen)
		if err == nil && len(rec) >= 8+stampSize(a.Label.Version) {
			return readStamp(rec, 4, a.Label.Version), nil
		}
		if first == nil {
			first = err
		}
		s := &Scanner{a: a, vol: i, off: v.first, frames: scanFrames()}
		var last Timestamp
		found := false
		for s.Next() && s.rec.Vol == int(v.num) {
			last, found = s.rec.Time, true
		}
		if found {
			return last, nil
		}
	}
	if first != nil {
		return Timestamp{}, first
	}
	return a.Label.Start, nil
}

// readRecordBack reads the record that ends at end (not before first)
// through its trailer, checks it as frames.record does, and returns it
// and its start.
func readRecordBack(f File, end, first int64, max int) ([]byte, int64, error) {
	if end-4 < first {
		return nil, 0, fail(f.Name, "record.trailer", end, ErrTruncated)
	}
	var w [4]byte
	if _, err := f.R.ReadAt(w[:], end-4); err != nil {
		return nil, 0, ioFail(f.Name, "record.trailer", end-4, err)
	}
	n := int64(be32(w[:], 0))
	if n < 12 || end-n < first {
		return nil, 0, failValue(f.Name, "record.trailer", end-4, ErrLength, n, end-first)
	}
	r := frames{lenField: "record.len"}
	_, rec, err := r.record(&f, end-n, 0, max)
	return rec, end - n, err
}
