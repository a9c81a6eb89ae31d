package archive

import "encoding/binary"

// IndexEntry is one entry of the temporal index: from Time on, the data
// is at DataOffset in volume Vol and the .meta has been written up to
// MetaOffset (docs/pcp-archive.md §6).
type IndexEntry struct {
	Time       Timestamp
	Vol        int32
	MetaOffset int64
	DataOffset int64
}

// indexEntrySize is an entry's size in version v: 20 bytes in v2, 32 in v3.
func indexEntrySize(v int) int {
	if v == 3 {
		return 32
	}
	return 20
}

// HasIndex reports whether the archive was opened with its .index.
func (a *Archive) HasIndex() bool { return a.index != nil }

// Index reads the temporal index. Every whole entry is returned; the
// error is the first problem found: ErrTruncated when the file ends inside
// an entry, ErrRange for an entry whose offsets point past the end of the
// .meta or of its volume (as pmlogcheck reports them).
func (a *Archive) Index() ([]IndexEntry, error) {
	if a.index == nil {
		return nil, nil
	}
	f := *a.index
	v := a.Label.Version
	first := int64(labelLenV2)
	if v == 3 {
		first = labelLenV3
	}
	size := int64(indexEntrySize(v))
	n := (f.Size - first) / size
	if n < 0 {
		n = 0
	}
	if n > int64(a.o.MaxRecordLen)/size {
		return nil, failValue(f.Name, "index", first, ErrLimit, n, int64(a.o.MaxRecordLen)/size)
	}
	b := make([]byte, n*size)
	if _, err := f.R.ReadAt(b, first); err != nil {
		return nil, ioFail(f.Name, "index", first, err)
	}
	out := make([]IndexEntry, n)
	for i := range out {
		e := b[int64(i)*size:]
		out[i].Time = readStamp(e, 0, v)
		if v == 3 {
			out[i].Vol = int32(be32(e, 12))
			out[i].MetaOffset = int64(binary.BigEndian.Uint64(e[16:]))
			out[i].DataOffset = int64(binary.BigEndian.Uint64(e[24:]))
		} else {
			out[i].Vol = int32(be32(e, 8))
			out[i].MetaOffset = int64(be32(e, 12))
			out[i].DataOffset = int64(be32(e, 16))
		}
	}
	for i, e := range out {
		at := first + int64(i)*size
		if e.MetaOffset > a.metaSize {
			return out, failValue(f.Name, "index.meta_off", at, ErrRange, e.MetaOffset, a.metaSize)
		}
		if vs, ok := a.VolumeSize(e.Vol); ok && e.DataOffset > vs {
			return out, failValue(f.Name, "index.data_off", at, ErrRange, e.DataOffset, vs)
		}
	}
	if rest := (f.Size - first) - n*size; rest > 0 {
		return out, failValue(f.Name, "index entry", first+n*size, ErrTruncated, rest, size)
	}
	return out, nil
}

// VolumeSize returns the size of data volume vol and whether the archive
// has it.
func (a *Archive) VolumeSize(vol int32) (int64, bool) {
	for _, v := range a.vols {
		if v.num == vol {
			return v.Size, true
		}
	}
	return 0, false
}

// MetaSize is the size of the .meta file.
func (a *Archive) MetaSize() int64 { return a.metaSize }
