package dlt

import (
	"bytes"
	"iter"
)

// Scanner reads the messages of a byte slice that holds a whole file or
// stream capture:
//
//	s := dlt.NewScanner(data, dlt.Options{})
//	for s.Next() {
//		m := s.Message()
//		...
//	}
//	if err := s.Err(); err != nil { ... }
//
// After a corrupt record it resynchronises: with storage or serial
// framing it searches forward for the next header pattern whose record
// validates (the pattern may also occur inside payloads), preferring one
// whose LEN leads to another pattern or the end of input, and adds the
// bytes it passed over to [Scanner.Skipped]. A record whose LEN does not
// lead to a pattern is rejected when another valid record starts inside
// its claimed span (a damaged length or a partly written record). With
// [FramingBare] there is no pattern to search for, so the first corrupt
// record ends the scan; so does any corruption with [Options.NoResync].
// Scanning allocates nothing; the messages alias data. A Scanner is a
// value; copying it snapshots its position.
type Scanner struct {
	buf     []byte
	off     int
	opt     Options
	msg     Message
	err     error
	skipErr error
	skipped int
	resyncs int

	// For Reader: buf is a window of a longer stream that starts at
	// stream offset origin; while more is set, input continues after buf
	// and only records starting before len(buf)-lookahead are decided.
	origin    int
	more      bool
	lookahead int

	// A resynchronisation under way: where the corrupt record started
	// (stream offset) and its error.
	pending   bool
	pendStart int
	pendErr   error
}

// NewScanner returns a scanner positioned at the start of data.
func NewScanner(data []byte, opt Options) Scanner {
	return Scanner{buf: data, opt: opt}
}

// Next advances to the next valid message and reports whether there is
// one. It returns false at the end of the input or on an error that
// resynchronisation cannot get past; [Scanner.Err] tells which.
func (s *Scanner) Next() bool {
	if s.err != nil {
		return false
	}
	for s.off < s.decidable() {
		if s.pending {
			// A resynchronisation carried over from the previous window:
			// s.off has not been looked at yet.
			if !s.resyncFrom(s.off) {
				continue
			}
		}
		m, n, err := consume(s.buf, s.off, s.opt)
		if err == nil && !s.opt.NoResync && !s.followed(s.off+n) {
			// LEN does not lead to the next header pattern. If a valid
			// record starts inside the claimed span, this LEN is the
			// corrupt one (a partly written record, a damaged length);
			// otherwise the record is fine and garbage follows it.
			if c := s.resync(s.off+1, s.off+n); c >= 0 {
				err = errAt("LEN", s.off+int(m.std)+2, ErrLength)
			}
		}
		if err == nil {
			m.base += s.origin
			s.msg = m
			s.off += n
			return true
		}
		s.pending = true
		s.pendStart = s.origin + s.off
		s.pendErr = s.shift(err)
		if s.opt.NoResync || s.pattern() == nil {
			break
		}
		s.resyncFrom(s.off + 1)
	}
	if s.pending && (!s.more || s.opt.NoResync || s.pattern() == nil) {
		// Nothing valid follows: report the failure that started the
		// search. For a record cut off by the end of input that is
		// ErrTruncated.
		s.err = s.pendErr
		s.pending = false
	}
	s.msg = Message{}
	return false
}

// acceptEarly decides the record at s.off past the decidable end of a
// window when the complete input would decide it the same way whatever
// follows: it decodes and (unless resynchronisation is off, or the
// framing has no pattern) the next header pattern follows it in full.
// The Reader calls it before reading more: without it a live stream would
// wait for a whole resynchronisation window of later bytes before its
// first record came out. The Feeder calls it before waiting for more.
func (s *Scanner) acceptEarly() bool {
	// Only a whole record is worth decoding (a partial one would cost an
	// error value on every read): its LEN says where it ends.
	pre := 0
	switch s.opt.Framing {
	case FramingStorage:
		pre = StorageHeaderLen
	case FramingSerial:
		pre = len(serialPattern)
	}
	if s.off+pre+4 > len(s.buf) {
		return false
	}
	end := s.off + pre + (int(s.buf[s.off+pre+2])<<8 | int(s.buf[s.off+pre+3]))
	if end > len(s.buf) {
		return false
	}
	m, n, err := consume(s.buf, s.off, s.opt)
	if err != nil {
		return false
	}
	if pat := s.pattern(); pat != nil && !s.opt.NoResync {
		if rest := s.buf[s.off+n:]; len(rest) < len(pat) || !bytes.HasPrefix(rest, pat) {
			return false
		}
	}
	m.base += s.origin
	s.msg = m
	s.off += n
	return true
}

// resyncFrom searches for the next record from offset from. If it finds
// one it accounts for the skipped bytes, moves there and returns true;
// otherwise it moves to the end of what can be decided (the Reader then
// refills and the search goes on) and returns false.
func (s *Scanner) resyncFrom(from int) bool {
	next := s.resync(from, s.decidable())
	if next < 0 {
		s.off = max(s.off, s.decidable())
		return false
	}
	if s.skipErr == nil {
		s.skipErr = s.pendErr
	}
	s.resyncs++
	s.skipped += s.origin + next - s.pendStart
	s.off = next
	s.pending = false
	return true
}

// decidable is the end of the offsets where a record can be decoded
// with certainty: all of buf for a complete input, else the window minus
// the largest record and the following pattern.
func (s *Scanner) decidable() int {
	if !s.more {
		return len(s.buf)
	}
	return max(len(s.buf)-s.lookahead, 0)
}

// shift turns a window-relative error offset into a stream offset.
func (s *Scanner) shift(err error) error {
	if pe, ok := err.(*ParseError); ok && s.origin != 0 {
		pe.Offset += int64(s.origin)
	}
	return err
}

// pattern returns the header pattern of the framing, nil for bare.
func (s *Scanner) pattern() []byte {
	switch s.opt.Framing {
	case FramingStorage:
		return storagePattern[:]
	case FramingSerial:
		return serialPattern[:]
	}
	return nil
}

// followed reports whether offset at is the end of the input or starts
// with (a prefix of) the framing's header pattern.
func (s *Scanner) followed(at int) bool {
	rest := s.buf[at:]
	pat := s.pattern()
	return bytes.HasPrefix(rest, pat) || (len(rest) < len(pat) && bytes.HasPrefix(pat, rest))
}

// indexPattern is bytes.Index for a framing's pattern (a few bytes, the
// first of them rare in a damaged stretch): its first byte found with
// IndexByte, the rest compared, without linking bytes.Index's general
// search (module size; see wasm/size).
func indexPattern(b, pat []byte) int {
	for i := 0; ; i++ {
		j := bytes.IndexByte(b[i:], pat[0])
		if j < 0 || len(b)-i-j < len(pat) {
			return -1
		}
		if i += j; bytes.Equal(b[i:i+len(pat)], pat) {
			return i
		}
	}
}

// resync returns the offset of the first candidate record starting in
// [from, limit) that decodes and is itself followed by a header pattern
// or the end of input; failing that, the first candidate that merely
// decodes; else -1. Bare framing has no pattern and never resyncs.
func (s *Scanner) resync(from, limit int) int {
	pat := s.pattern()
	if pat == nil {
		return -1
	}
	loose := -1
	for from < limit {
		i := indexPattern(s.buf[from:min(limit+len(pat)-1, len(s.buf))], pat)
		if i < 0 {
			break
		}
		at := from + i
		if _, n, err := consume(s.buf, at, s.opt); err == nil {
			if s.followed(at + n) {
				return at
			}
			if loose < 0 {
				// Look for a better candidate only inside this one's
				// span, which keeps every resync bounded by one record.
				// The whole span, even past a Reader's decidable end:
				// its lookahead covers a candidate starting inside a
				// record, so the window cannot change the choice.
				loose = at
				limit = at + n
			}
		}
		from = at + 1
	}
	return loose
}

// Message returns the current message; valid after Next returned true.
func (s *Scanner) Message() Message { return s.msg }

// Err returns the error that ended the scan, nil at a clean end of input.
// Corruption the scanner resynchronised past is not an error here; see
// [Scanner.Skipped] and [Scanner.SkipError].
func (s *Scanner) Err() error { return s.err }

// Skipped is the number of bytes passed over while resynchronising.
func (s *Scanner) Skipped() int { return s.skipped }

// Resyncs is the number of times the scanner resynchronised.
func (s *Scanner) Resyncs() int { return s.resyncs }

// SkipError returns the error of the first corrupt record the scanner
// resynchronised past, or nil.
func (s *Scanner) SkipError() error { return s.skipErr }

// Offset is the input offset where the next record is expected.
func (s *Scanner) Offset() int { return s.origin + s.off }

// All returns an iterator over the remaining messages. A final error, if
// any, is yielded once with a zero Message; resynchronisation is silent as
// with Next.
func (s *Scanner) All() iter.Seq2[Message, error] {
	return func(yield func(Message, error) bool) {
		for s.Next() {
			if !yield(s.msg, nil) {
				return
			}
		}
		if s.err != nil {
			yield(Message{}, s.err)
		}
	}
}
