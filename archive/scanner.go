package archive

import (
	"io"

	"github.com/perfwire/perfwire/pduwire"
)

// Record is one data record: the values of one fetch at Time, or a mark
// (a gap in the recording, where pmlogger stopped and started again:
// values on either side must not be joined).
type Record struct {
	Time   Timestamp
	Mark   bool
	Vol    int   // the data volume it is in
	Offset int64 // its byte offset in that volume
	// Result is a view of the record's value sets (NumPMID is 0 for a
	// mark); Sec and Nsec hold Time. It is valid until the next call to
	// the Scanner's Next.
	Result pduwire.Result
}

// pre is the room kept before a record in the scanner's buffer: a
// record's value block pointers count words as if a 12-byte PDU header
// stood before its payload, which begins 4 bytes into the record
// (docs/pcp-archive.md §4), so the view starts 8 bytes before it.
const pre = 8

// Scanner reads the data records of an archive in order, across its
// volumes. It allocates nothing once its buffer holds the largest record.
//
//	s := a.NewScanner()
//	for s.Next() {
//		r := s.Record()
//		...
//	}
//	if err := s.Err(); err != nil { ... }
type Scanner struct {
	a       *Archive
	last    Timestamp // the previous record's time, at first the label's
	skipped int
	frames
	vol int   // index into a.vols
	off int64 // the next record's offset in that volume
	rec Record
	err error
}

// NewScanner returns a Scanner at the archive's first record.
func (a *Archive) NewScanner() *Scanner {
	s := &Scanner{a: a, last: a.Label.Start, frames: scanFrames()}
	if len(a.vols) > 0 {
		s.off = a.vols[0].first
	}
	return s
}

// window is how much of a volume a Scanner reads at once: records are
// served from it, so a file costs one read per window, not two per
// record.
const window = 64 << 10

// frames reads framed records through a window of a file: the data
// volumes a Scanner reads, and the .meta. It is the one reader of records
// forwards, so that a WebAssembly module links one (module size; see
// wasm/size).
type frames struct {
	win    *File // the file the window holds, nil for none
	winOff int64 // the window's offset in it
	window int   // how much to read at once, 0 for just what is needed
	buf    []byte
	// lenField names a failed read of a length word in errors: the
	// Scanner's "record", the .meta's "record.len".
	lenField string
}

// record returns the record at off of f, and a view that starts pre
// bytes before it (see pre), both in the read window. It checks the
// length against the file's size and limit, and the trailer against the
// header.
func (r *frames) record(f *File, off int64, pre, limit int) (base, rec []byte, err error) {
	if off+4 > f.Size {
		return nil, nil, fail(f.Name, "record.len", off, ErrTruncated)
	}
	// The window is made to hold need bytes from off−pre twice at most,
	// through one piece of code: the length word, then the record. It is
	// read whole (or what is needed, if more) when it does not hold them;
	// field names what is read, for errors.
	n := int64(0) // the record's length, once read
	need, field := pre+4, r.lenField
	for {
		from := off - int64(pre)
		if r.win != f || from < r.winOff || from+int64(need) > r.winOff+int64(len(r.buf)) {
			size := int(min(int64(max(r.window, need)), f.Size-from))
			if cap(r.buf) < size {
				r.buf = make([]byte, size, max(size, r.window))
			}
			r.buf = r.buf[:size]
			if got, err := f.R.ReadAt(r.buf, from); got < size {
				r.win = nil
				if err == nil {
					err = io.ErrUnexpectedEOF
				}
				return nil, nil, ioFail(f.Name, field, off, err)
			}
			r.win, r.winOff = f, from
		}
		at := int(off - r.winOff)
		if n > 0 {
			rec = r.buf[at : at+int(n)]
			if t := be32(rec, int(n)-4); int64(t) != n {
				return nil, nil, failValue(f.Name, "record.trailer", off+n-4, errFrame, int64(t), n)
			}
			return r.buf[at-pre : at+int(n)], rec, nil
		}
		n = int64(be32(r.buf, at))
		switch {
		case n < 12:
			return nil, nil, failValue(f.Name, "record.len", off, ErrLength, n, 12)
		case n > int64(limit):
			return nil, nil, failValue(f.Name, "record.len", off, ErrLimit, n, int64(limit))
		case off+n > f.Size:
			return nil, nil, failValue(f.Name, "record", off, ErrTruncated, n, f.Size-off)
		}
		need, field = pre+int(n), "record"
	}
}

// scanFrames is a Scanner's reader: a window at a time.
func scanFrames() frames { return frames{window: window, lenField: "record"} }

// Rewind puts the scanner back at the archive's first record, keeping its
// buffer, and clears its error.
func (s *Scanner) Rewind() {
	s.vol, s.off, s.err, s.last, s.skipped = 0, 0, nil, s.a.Label.Start, 0
	if len(s.a.vols) > 0 {
		s.off = s.a.vols[0].first
	}
}

// Next reads the next record; it reports false at the end of the last
// volume or at damage, which Err then returns. A record earlier than the
// one it returned before (or than the label's start) is passed over and
// counted by Skipped, as libpcp's readers do, unless
// Options.KeepOutOfOrder is set.
func (s *Scanner) Next() bool {
	for s.err == nil {
		for s.vol < len(s.a.vols) && s.off >= s.a.vols[s.vol].Size {
			s.vol++
			if s.vol < len(s.a.vols) {
				s.off = s.a.vols[s.vol].first
			}
		}
		if s.vol >= len(s.a.vols) {
			return false
		}
		v := &s.a.vols[s.vol]
		var base, rec []byte
		if base, rec, s.err = s.record(&v.File, s.off, pre, s.a.o.MaxRecordLen); s.err != nil {
			return false
		}
		// The record's time and value sets, decoded here rather than by
		// a function of its own, as metaParser.record reads a
		// descriptor.
		ver := s.a.Label.Version
		hdr := stampSize(ver) + 4 // timestamp, numpmid
		if len(rec) < 8+hdr {
			s.err = failValue(v.Name, "record.len", s.off, ErrLength, int64(len(rec)), int64(8+hdr))
			return false
		}
		t := readStamp(rec, 4, ver)
		numpmid := int32(be32(rec, 4+hdr-4))
		if numpmid < 0 || int(numpmid) > len(rec)/8 {
			s.err = failValue(v.Name, "record.numpmid", s.off+int64(hdr), ErrCount, int64(numpmid), int64(len(rec)/8))
			return false
		}
		body := base[:pre+len(rec)-4] // up to the trailer; word 3 is the payload's first
		res, err := pduwire.ParseResultBody(body, pre+4+hdr, int(numpmid))
		if err != nil {
			s.err = rebase(err, v.Name, s.off-pre)
			return false
		}
		res.Sec, res.Nsec = t.Sec, int64(t.Nsec)
		res.HighRes = ver == 3
		s.rec = Record{Time: t, Mark: numpmid == 0, Vol: int(v.num), Offset: s.off, Result: res}
		s.off += int64(len(rec))
		if s.rec.Time.Before(s.last) && !s.a.o.KeepOutOfOrder {
			// Earlier than the record before it (or than the label's
			// start): libpcp's readers pass over it, pmlogcheck reports it.
			s.skipped++
			continue
		}
		s.last = s.rec.Time
		return true
	}
	return false
}

// Skipped returns how many records Next passed over for being earlier
// than the record before them (see Options.KeepOutOfOrder).
func (s *Scanner) Skipped() int { return s.skipped }

// Record returns the record the last Next read.
func (s *Scanner) Record() *Record { return &s.rec }

// Err returns the error that stopped the scanner, nil at a clean end.
func (s *Scanner) Err() error { return s.err }
