package eventrec

import (
	"iter"

	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pcp"
)

// Record is one event record of an [Array]: a timestamp, flags, and
// either parameters or (for a missed-record marker) a count of lost
// records. It aliases the array's bytes.
type Record struct {
	sec     int64
	frac    int64
	flags   Flags
	n       int32  // er_nparams: parameters, or the lost count when missed
	params  []byte // the parameters' bytes, exactly
	off     int    // offset of the record in the array
	highRes bool
}

// Seconds returns tv_sec, sign-extended for 32-bit stamps (negative
// values are pre-1970 times and are accepted).
func (r Record) Seconds() int64 { return r.sec }

// Fraction returns the raw sub-second field: microseconds for EVENT
// records, nanoseconds for HIGHRES_EVENT records.
func (r Record) Fraction() int64 { return r.frac }

// Nanoseconds returns the sub-second part in nanoseconds for both kinds.
func (r Record) Nanoseconds() int64 {
	if r.highRes {
		return r.frac
	}
	return r.frac * 1000
}

// HighRes reports whether the record came from a HIGHRES_EVENT array.
func (r Record) HighRes() bool { return r.highRes }

// Flags returns er_flags, undefined bits included.
func (r Record) Flags() Flags { return r.flags }

// Missed reports whether the record is a missed-record marker and, if so,
// how many records were lost.
func (r Record) Missed() (n int32, ok bool) {
	if r.flags == FlagMissed {
		return r.n, true
	}
	return 0, false
}

// NumParams returns the number of parameters (0 for a missed marker).
func (r Record) NumParams() int {
	if r.flags == FlagMissed {
		return 0
	}
	return int(r.n)
}

// Offset returns the record's byte offset within the array.
func (r Record) Offset() int { return r.off }

// Params returns the record's parameters in order.
func (r Record) Params() iter.Seq[Param] {
	return func(yield func(Param) bool) {
		s := r.ParamScanner()
		for s.Next() {
			if !yield(s.p) {
				return
			}
		}
	}
}

// ParamScanner returns a scanner over the record's parameters, the
// allocation-free loop for hot paths.
func (r Record) ParamScanner() ParamScanner {
	return ParamScanner{b: r.params, left: int32(r.NumParams())}
}

// Scanner walks an [Array]'s records, validating each one fully (header
// and parameters) before returning it:
//
//	s := a.Scanner()
//	for s.Next() {
//		r := s.Record()
//	}
//	err := s.Err()
//
// A Scanner is a small value; copying it snapshots the position.
type Scanner struct {
	a    Array
	off  int   // next record's offset in the array
	left int32 // records still to read
	rec  Record
	err  error
}

// Scanner returns a scanner positioned before the first record.
func (a Array) Scanner() Scanner {
	return Scanner{a: a, off: arrayHeaderLen, left: a.n}
}

// Record returns the record read by the last successful [Scanner.Next].
func (s *Scanner) Record() Record { return s.rec }

// Err returns the first error met, or nil after a clean end.
func (s *Scanner) Err() error { return s.err }

// Next reads and validates the next record; it returns false at the end
// of the array or on error.
func (s *Scanner) Next() bool {
	if s.left <= 0 || s.err != nil {
		return false
	}
	// Every failure but the limit goes to one fail call: in WebAssembly
	// each call and its return is code (module size; see wasm/size).
	b, off, opts := s.a.b, s.off, &s.a.options
	var (
		r     Record
		h     []byte
		start int
		at    int
		field string
		kind  error
	)
	r.off = off
	hdr := recordHeaderLen
	if s.a.typ == pcp.TypeHighResEvent {
		hdr = hrRecordHeaderLen
		r.highRes = true
	}
	if uint64(hdr) > uint64(len(b)-off) {
		field, at, kind = "record header", off, ErrTruncated
		goto fail
	}
	h = b[off : off+hdr]
	if r.highRes {
		r.sec = int64(be64(h))
		r.frac = int64(be64(h[8:]))
		if !opts.Lenient && uint64(r.frac) >= 1e9 {
			field, at, kind = "tv_nsec", off+8, ErrRange
			goto fail
		}
	} else {
		r.sec = int64(int32(be32(h)))
		r.frac = int64(int32(be32(h[4:])))
		if !opts.Lenient && uint64(r.frac) >= 1e6 {
			field, at, kind = "tv_usec", off+4, ErrRange
			goto fail
		}
	}
	r.flags = Flags(be32(h[hdr-8:]))
	r.n = int32(be32(h[hdr-4:]))
	if r.flags&FlagMissed != 0 && r.flags != FlagMissed {
		field, at, kind = "er_flags", off+hdr-8, ErrField
		goto fail
	}
	if r.n < 0 {
		field, at, kind = "er_nparams", off+hdr-4, ErrCount
		goto fail
	}
	off += hdr
	start = off
	if r.flags != FlagMissed {
		if lim := opts.maxParams(); int64(r.n) > int64(lim) {
			s.err = wire.NewValueError("eventrec", "er_nparams", s.a.options.Base+off-4, ErrLimit, int64(r.n), int64(lim))
			s.left = 0
			return false
		}
		// Each parameter needs at least 8 bytes: a cheap bound before
		// walking them one by one.
		if uint64(r.n)*paramHeaderLen > uint64(len(b)-off) {
			field, at, kind = "er_nparams", off-4, ErrTruncated
			goto fail
		}
		if s.a.valid {
			// Checked by Parse: only step over the parameters,
			// keeping the bounds checks in case the bytes were changed
			// since (an error then, never a panic).
			for i := int32(0); i < r.n; i++ {
				if len(b)-off < paramHeaderLen {
					field, at, kind = "parameter header", off, ErrTruncated
					goto fail
				}
				n := 4 + wire.Pad4(int(be32(b[off+4:])&maxEALen))
				if n > len(b)-off {
					field, at, kind = "ep_len", off+4, ErrTruncated
					goto fail
				}
				off += n
			}
		} else {
			// Each parameter checked here, not by a function of its
			// own (module size; see wasm/size).
			for i := int32(0); i < r.n; i++ {
				p := b[off:]
				field, at, kind = "parameter header", off, ErrTruncated
				if len(p) < paramHeaderLen {
					goto fail
				}
				w := be32(p[4:])
				t := pcp.Type(w >> 24)
				epLen := int(w & maxEALen)
				n := 4 + wire.Pad4(epLen)
				at = off + 4
				switch fl := fixedLen(t); {
				case epLen < 4:
					field, kind = "ep_len", ErrLength
				case uint64(n) > uint64(len(p)):
					field, kind = "ep_len", ErrTruncated
				case t == pcp.TypeEvent || t == pcp.TypeHighResEvent || fl < 0:
					field, kind = "ep_type", ErrType
				case fl > 0 && epLen != 4+fl:
					field, kind = "ep_len", ErrLength
				default:
					off += n
					continue
				}
				goto fail
			}
		}
	}
	r.params = b[start:off:off]
	s.rec = r
	s.off = off
	s.left--
	return true
fail:
	s.err = newError(field, s.a.options.Base+at, kind)
	s.left = 0
	return false
}
