package dlt

// Feeder is the push-mode counterpart of [Reader]: the caller hands it
// the stream piece by piece as the bytes arrive (a WebSocket, a browser's
// fetch stream, a wasm host's calls) and takes the messages each piece
// completes. It frames, resynchronises and counts exactly as [Scanner]
// does on the whole stream, however the stream is cut:
//
//	f := dlt.NewFeeder(dlt.Options{})
//	for chunk := range chunks {
//		f.Feed(chunk)
//		for f.Next() {
//			m := f.Message() // valid until the next Feed
//		}
//	}
//	f.End()
//	for f.Next() {
//		...
//	}
//	err := f.Err()
//
// A record is decided as soon as what follows it cannot change the
// verdict: when it decodes and the next header pattern follows it in
// full, or once a resynchronisation window of later bytes has arrived.
// The Feeder keeps only the bytes not yet decided (at most about two
// records' worth beyond the last piece) and copies them, so a piece may
// be reused once Feed returns.
type Feeder struct {
	buf []byte
	s   Scanner
}

// NewFeeder returns a feeder of an empty stream. Options are as for
// [NewScanner].
func NewFeeder(opt Options) *Feeder {
	return &Feeder{s: Scanner{opt: opt, more: true, lookahead: lookahead(opt)}}
}

// Feed appends the next piece of the stream. Feeding after End is
// ignored.
func (f *Feeder) Feed(chunk []byte) {
	if !f.s.more {
		return
	}
	// Keep the undecided tail, at the front, and the new piece after it.
	f.buf = append(f.buf[:0], f.s.buf[f.s.off:]...)
	f.s.origin += f.s.off
	f.buf = append(f.buf, chunk...)
	f.s.buf, f.s.off = f.buf, 0
}

// End declares the stream complete: the records still undecided are
// decided as [Scanner] decides the end of its input, and a record cut
// off by the end is [ErrTruncated].
func (f *Feeder) End() { f.s.more = false }

// Next advances to the next message that the bytes fed so far decide. It
// returns false when it needs more input, at the end (after End), or on
// an error that resynchronisation cannot get past; [Feeder.Err] tells the
// last two apart from waiting.
func (f *Feeder) Next() bool {
	if f.s.Next() {
		return true
	}
	if f.s.err != nil || !f.s.more {
		return false
	}
	return !f.s.pending && f.s.acceptEarly()
}

// Message returns the current message; it aliases the feeder's buffer
// and is valid until the next call to Feed.
func (f *Feeder) Message() Message { return f.s.msg }

// Err returns the error that ended the stream, as [Scanner.Err].
func (f *Feeder) Err() error { return f.s.err }

// Skipped is the number of bytes passed over while resynchronising.
func (f *Feeder) Skipped() int { return f.s.skipped }

// Resyncs is the number of times the feeder resynchronised.
func (f *Feeder) Resyncs() int { return f.s.resyncs }

// SkipError returns the error of the first corrupt record the feeder
// resynchronised past, or nil.
func (f *Feeder) SkipError() error { return f.s.skipErr }

// Offset is the stream offset where the next record is expected.
func (f *Feeder) Offset() int { return f.s.Offset() }

// Options returns the options the feeder was made with.
func (f *Feeder) Options() Options { return f.s.opt }
