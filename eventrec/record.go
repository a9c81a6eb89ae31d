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
	b, opts := s.a.b, &s.a.options
	r := Record{off: s.off, highRes: s.a.typ == pcp.TypeHighResEvent}
	var err error
	r.sec, r.frac, r.flags, r.n, err = recordHeader(b, s.off, r.highRes, opts)
	if err != nil {
		s.err = err
		s.left = 0
		return false
	}
	off := r.off + recordHeaderLen
	if r.highRes {
		off = r.off + hrRecordHeaderLen
	}
	start := off
	if r.flags != FlagMissed {
		for i := int32(0); i < r.n; i++ {
			n, err := paramLen(b, off, opts.Base)
			if err != nil {
				s.err = err
				s.left = 0
				return false
			}
			off += n
		}
	}
	r.params = b[start:off:off]
	s.rec = r
	s.off = off
	s.left--
	return true
}

// recordHeader reads and checks the header of the record at off in the
// array b: the timestamp (its fraction in range unless opts.Lenient), the
// flags (MISSED alone or not at all) and the parameter count (not
// negative, within opts' limit and within the bytes left at 8 bytes a
// parameter). The parameters themselves are left to [paramLen]. The
// results are few words so that they come back in registers.
func recordHeader(b []byte, off int, highRes bool, opts *Options) (sec, frac int64, flags Flags, n int32, err error) {
	// Every failure but the limit goes to one newError call: in
	// WebAssembly each call and its return is code (module size; see wasm/size).
	var (
		h     []byte
		at    int
		field string
		kind  error
	)
	hdr := recordHeaderLen
	if highRes {
		hdr = hrRecordHeaderLen
	}
	if uint64(hdr) > uint64(len(b)-off) {
		field, at, kind = "record header", off, ErrTruncated
		goto fail
	}
	h = b[off : off+hdr]
	if highRes {
		sec = int64(be64(h))
		frac = int64(be64(h[8:]))
		if !opts.Lenient && uint64(frac) >= 1e9 {
			field, at, kind = "tv_nsec", off+8, ErrRange
			goto fail
		}
	} else {
		sec = int64(int32(be32(h)))
		frac = int64(int32(be32(h[4:])))
		if !opts.Lenient && uint64(frac) >= 1e6 {
			field, at, kind = "tv_usec", off+4, ErrRange
			goto fail
		}
	}
	flags = Flags(be32(h[hdr-8:]))
	n = int32(be32(h[hdr-4:]))
	if flags&FlagMissed != 0 && flags != FlagMissed {
		field, at, kind = "er_flags", off+hdr-8, ErrField
		goto fail
	}
	if n < 0 {
		field, at, kind = "er_nparams", off+hdr-4, ErrCount
		goto fail
	}
	if flags != FlagMissed {
		off += hdr
		if lim := opts.maxParams(); int64(n) > int64(lim) {
			return 0, 0, 0, 0, wire.NewValueError("eventrec", "er_nparams", opts.Base+off-4, ErrLimit, int64(n), int64(lim))
		}
		// Each parameter needs at least 8 bytes: a cheap bound before
		// walking them one by one.
		if uint64(n)*paramHeaderLen > uint64(len(b)-off) {
			field, at, kind = "er_nparams", off-4, ErrTruncated
			goto fail
		}
	}
	return sec, frac, flags, n, nil
fail:
	return 0, 0, 0, 0, newError(field, opts.Base+at, kind)
}

// paramLen checks the parameter at off in the array b (its header in
// the bytes, ep_len at least 4 and inside them, a type that may travel
// in a record with the length it fixes) and returns the bytes it takes,
// pad included. Errors are offset by base. The checks that pass are
// small enough to be inlined into the walks; paramError says which
// failed.
func paramLen(b []byte, off, base int) (int, error) {
	if p := b[off:]; len(p) >= paramHeaderLen {
		w := be32(p[4:])
		epLen := int(w & maxEALen)
		n := (epLen + 7) &^ 3 // 4 + epLen padded to 4
		if fl := int(paramLens[w>>24]); epLen >= 4 && n <= len(p) && (fl == 0 || epLen == fl) {
			return n, nil
		}
	}
	return 0, paramError(b, off, base)
}

// paramLens holds, for each parameter type, 4 + the value size that it
// fixes, 0 for the variable-size types and -1 (never a valid ep_len) for
// the types that may not travel in a record.
var paramLens = func() (t [256]int8) {
	for i := range t {
		if fl := fixedLen(pcp.Type(i)); fl > 0 {
			t[i] = int8(4 + fl)
		} else {
			t[i] = int8(fl)
		}
	}
	return t
}()

// paramError returns the error for the parameter at off, which
// paramLen found bad.
func paramError(b []byte, off, base int) error {
	p := b[off:]
	field, at, kind := "parameter header", off, error(ErrTruncated)
	if len(p) >= paramHeaderLen {
		w := be32(p[4:])
		t := pcp.Type(w >> 24)
		epLen := int(w & maxEALen)
		at = off + 4
		switch fl := fixedLen(t); {
		case epLen < 4:
			field, kind = "ep_len", ErrLength
		case uint64(4+wire.Pad4(epLen)) > uint64(len(p)):
			field, kind = "ep_len", ErrTruncated
		case t == pcp.TypeEvent || t == pcp.TypeHighResEvent || fl < 0:
			field, kind = "ep_type", ErrType
		default:
			field, kind = "ep_len", ErrLength
		}
	}
	return newError(field, base+at, kind)
}
