package archive

import (
	"io"

	"github.com/perfwire/perfwire/pduwire"
)

// Writer writes an archive as pmlogger does: the label of each file, the
// metadata records as the caller adds them, data records, and temporal
// index entries at the start, at each new volume and at the end. The
// caller gives the files as io.Writers, so a Writer needs no os; it
// writes each record whole with one Write. Errors are sticky: after a
// failed write every call returns that error.
//
// A metric's descriptor, and the instance domain and help text a reader
// needs, go to the .meta before the first record that uses them, as
// readers look them up by time.
type Writer struct {
	l       Label
	meta    io.Writer
	index   io.Writer
	vol     io.Writer
	metaOff int64
	volOff  int64
	last    Timestamp
	buf     []byte
	indexed bool // an index entry is due before the next data record
	err     error
}

// NewWriter writes the labels of a new archive to meta, index and vol
// (volume 0) and returns its writer. l.Version is 2 or 3; l.Vol is set
// for each file. index may be nil: the archive then has no .index (it is
// optional for readers).
func NewWriter(l Label, meta, index, vol io.Writer) (*Writer, error) {
	if l.Version != 2 && l.Version != 3 {
		return nil, failValue("", "label.version", 0, ErrVersion, int64(l.Version), 3)
	}
	w := &Writer{l: l, meta: meta, index: index, vol: vol, last: l.Start}
	w.l.Vol = 0
	l.Vol = VolMeta
	w.write(&w.meta, &w.metaOff, AppendLabel(nil, l))
	if index != nil {
		l.Vol = VolIndex
		w.put(index, AppendLabel(nil, l))
	}
	l.Vol = 0
	w.write(&w.vol, &w.volOff, AppendLabel(nil, l))
	w.entry(l.Start)
	return w, w.err
}

func (w *Writer) put(dst io.Writer, b []byte) {
	if w.err != nil {
		return
	}
	if _, err := dst.Write(b); err != nil {
		w.err = err
	}
}

func (w *Writer) write(dst *io.Writer, off *int64, b []byte) {
	w.put(*dst, b)
	if w.err == nil {
		*off += int64(len(b))
	}
}

// entry appends an index entry for time t at the current offsets.
func (w *Writer) entry(t Timestamp) {
	if w.index != nil {
		e := IndexEntry{Time: t, Vol: w.l.Vol, MetaOffset: w.metaOff, DataOffset: w.volOff}
		w.put(w.index, AppendIndexEntry(w.buf[:0], w.l.Version, e))
	}
}

// Metric writes a descriptor record.
func (w *Writer) Metric(m Metric) error {
	w.buf = AppendDesc(w.buf[:0], m)
	w.write(&w.meta, &w.metaOff, w.buf)
	return w.err
}

// InDom writes an instance domain record: the domain as of in.Time.
func (w *Writer) InDom(in Instances) error {
	w.buf = AppendInDom(w.buf[:0], w.l.Version, in)
	w.write(&w.meta, &w.metaOff, w.buf)
	w.indexed = true // pmlogger indexes instance domain changes
	return w.err
}

// Labels writes a label record.
func (w *Writer) Labels(ls LabelSets) error {
	w.buf = AppendLabels(w.buf[:0], w.l.Version, ls)
	w.write(&w.meta, &w.metaOff, w.buf)
	return w.err
}

// Text writes a help text record.
func (w *Writer) Text(t Text) error {
	w.buf = AppendText(w.buf[:0], t)
	w.write(&w.meta, &w.metaOff, w.buf)
	return w.err
}

// Result writes a data record: r's value sets at time t, which must not
// be before the previous record's (ErrRange).
func (w *Writer) Result(t Timestamp, r *pduwire.ResultPDU) error {
	if w.err != nil {
		return w.err
	}
	if t.Before(w.last) {
		return failValue("", "record.timestamp", w.volOff, ErrRange, t.Sec, w.last.Sec)
	}
	if w.indexed {
		w.entry(t)
		w.indexed = false
	}
	w.buf = AppendResult(w.buf[:0], w.l.Version, t, r)
	w.write(&w.vol, &w.volOff, w.buf)
	w.last = t
	return w.err
}

// Mark writes a mark record at t: a gap in the recording.
func (w *Writer) Mark(t Timestamp) error {
	return w.Result(t, &pduwire.ResultPDU{})
}

// NewVolume continues the recording in vol, the next data volume.
func (w *Writer) NewVolume(vol io.Writer) error {
	if w.err != nil {
		return w.err
	}
	w.l.Vol++
	w.vol, w.volOff = vol, 0
	l := w.l
	w.write(&w.vol, &w.volOff, AppendLabel(w.buf[:0], l))
	w.indexed = true
	return w.err
}

// Volume returns the number of the volume being written.
func (w *Writer) Volume() int { return int(w.l.Vol) }

// Finish writes the last index entry. It does not close the files.
func (w *Writer) Finish() error {
	if w.err != nil {
		return w.err
	}
	w.entry(w.last)
	if w.err == nil {
		w.err = fail("", "writer", w.volOff, ErrWriterDone)
		return nil
	}
	return w.err
}
