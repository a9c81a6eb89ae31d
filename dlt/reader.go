package dlt

import (
	"errors"
	"io"
)

// Reader reads messages from an [io.Reader] (a TCP connection to the
// daemon, a serial line, a pipe, a file) with a buffer of at most four
// times the largest record (about 256 KiB by default, less with a smaller
// [Options.MaxMessageLen]), so memory stays bounded whatever the input. It frames,
// resynchronises and counts like [Scanner], with offsets counted from the
// start of the stream:
//
//	r := dlt.NewReader(conn, dlt.Options{Framing: dlt.FramingBare})
//	for r.Next() {
//		m := r.Message() // valid until the next call to Next
//	}
//	err := r.Err()
//
// A message and its views alias the Reader's buffer and are valid only
// until the next call to Next; Clone what must be kept. Reading
// allocates only the buffer: readerStartBuf at first, doubled while the
// source fills it or an undecided record needs more of it, up to its
// bound, so a small input does not pay for the largest record.
type Reader struct {
	src   io.Reader
	buf   []byte
	limit int  // the buffer's bound: 2 × lookahead
	full  bool // the last fill's read filled the buffer
	s     Scanner
	rerr  error
	begun bool
}

// readerStartBuf is the Reader's first buffer: a small file or a slow
// connection never needs more, and allocating (and faulting in) the
// whole bound costs more than reading a small input.
const readerStartBuf = 4 << 10

// maxZeroReads bounds how often a source may return no data and no
// error before the Reader gives up with io.ErrNoProgress.
const maxZeroReads = 100

// NewReader returns a reader of src. Options are as for [NewScanner];
// MaxMessageLen also bounds the buffer (4 × (16 + MaxMessageLen) + 8).
func NewReader(src io.Reader, opt Options) *Reader {
	look := lookahead(opt)
	return &Reader{
		src:   src,
		buf:   make([]byte, 0, min(2*look, readerStartBuf)),
		limit: 2 * look,
		s:     Scanner{opt: opt, more: true, lookahead: look},
	}
}

// Reset makes r read src from its start, as a new Reader with the same
// Options would, but keeping the buffer it has grown: a reader of many
// inputs (files in turn, a reconnecting stream) allocates nothing more.
// Messages read before Reset are no longer valid.
func (r *Reader) Reset(src io.Reader) {
	opt, look := r.s.opt, r.s.lookahead
	*r = Reader{
		src:   src,
		buf:   r.buf[:0],
		limit: r.limit,
		s:     Scanner{opt: opt, more: true, lookahead: look},
	}
}

// lookahead is how many bytes past a record's start deciding it may need
// when more input may follow: the record, a resync candidate that starts
// inside it, and the pattern after that candidate (Reader and Feeder).
func lookahead(opt Options) int {
	maxLen := opt.MaxMessageLen
	if maxLen <= 0 || maxLen > MaxMessageLen {
		maxLen = MaxMessageLen
	}
	return 2*(StorageHeaderLen+maxLen) + len(storagePattern)
}

// Next advances to the next message, reading from the source as needed.
// It returns false at the end of the stream or on an error; [Reader.Err]
// tells which.
func (r *Reader) Next() bool {
	for {
		if r.begun && r.s.Next() {
			return true
		}
		if r.s.err != nil || !r.s.more {
			return false
		}
		if r.begun && !r.s.pending && r.s.acceptEarly() {
			return true
		}
		r.fill()
		r.begun = true
	}
}

// fill moves the undecided tail of the window to the front and reads
// once: what one Read returns (a file fills the buffer; a connection
// gives what has arrived, so a live stream's records come out as they
// arrive), or the end of the source. It first doubles the buffer (up to
// its bound) when the last read filled it or the tail takes half of it.
func (r *Reader) fill() {
	if tail := len(r.s.buf) - r.s.off; cap(r.buf) < r.limit && (r.full || 2*tail >= cap(r.buf)) {
		r.buf = make([]byte, 0, min(2*cap(r.buf), r.limit))
	}
	n := copy(r.buf[:cap(r.buf)], r.s.buf[r.s.off:])
	r.s.origin += r.s.off
	zero := 0
	for n < cap(r.buf) {
		k, err := r.src.Read(r.buf[n:cap(r.buf)])
		n += k
		if err != nil {
			if !errors.Is(err, io.EOF) {
				r.rerr = err
			}
			r.s.more = false
			break
		}
		if k > 0 {
			break
		}
		if zero++; zero >= maxZeroReads {
			r.rerr = io.ErrNoProgress
			r.s.more = false
			break
		}
	}
	r.full = n == cap(r.buf)
	r.s.buf = r.buf[:n]
	r.s.off = 0
}

// Message returns the current message; valid until the next call to Next.
func (r *Reader) Message() Message { return r.s.msg }

// Err returns the error that ended reading: a decoding error as for
// [Scanner.Err], else the source's read error (io.EOF is not an error).
func (r *Reader) Err() error {
	if r.s.err != nil {
		return r.s.err
	}
	return r.rerr
}

// Skipped is the number of bytes passed over while resynchronising.
func (r *Reader) Skipped() int { return r.s.skipped }

// Resyncs is the number of times the reader resynchronised.
func (r *Reader) Resyncs() int { return r.s.resyncs }

// SkipError returns the error of the first corrupt record the reader
// resynchronised past, or nil.
func (r *Reader) SkipError() error { return r.s.skipErr }

// Offset is the stream offset where the next record is expected.
func (r *Reader) Offset() int { return r.s.Offset() }
