package eventrec

import (
	"iter"

	"github.com/perfwire/perfwire/internal/wire"

	"github.com/perfwire/perfwire/pcp"
)

// Sizes of the fixed parts of the format.
const (
	arrayHeaderLen    = 8  // type/len word + ea_nrecords
	recordHeaderLen   = 16 // tv_sec, tv_usec, er_flags, er_nparams
	hrRecordHeaderLen = 24 // tv_sec (64), tv_nsec (64), er_flags, er_nparams
	paramHeaderLen    = 8  // ep_pmid + type/len word
	maxEALen          = 1<<24 - 1
)

// Array is a validated view over one event record array: the value block
// of a PM_TYPE_EVENT or PM_TYPE_HIGHRES_EVENT value, starting with its
// type/length word. It aliases the caller's bytes and is valid while they
// are not modified. The zero Array is an empty EVENT array.
type Array struct {
	b       []byte // exactly ea_len bytes
	typ     pcp.Type
	n       int32
	slack   int
	options Options
}

// Parse validates b as an event array under opts (the zero Options are
// the strict defaults): the header, then every record and parameter in
// one pass (docs/pcp-events.md §6.2). b starts at the array's type/length
// word and may run past ea_len (to the end of the value block or of the
// PDU): ea_len must fit in b. On success iterating the array cannot fail.
// It allocates nothing on success.
//
// Parse fails with a *[ParseError] of kind [ErrTruncated], [ErrLength],
// [ErrType], [ErrCount], [ErrLimit] (with the count and the limit),
// [ErrField] (MISSED with other flags) or, in strict mode, [ErrRange]
// (a timestamp fraction out of range).
func Parse(b []byte, opts Options) (Array, error) {
	eaLen, typ, n, err := parseHeader(b, &opts)
	if err != nil {
		return Array{}, err
	}
	a := Array{b: b[:eaLen:eaLen], typ: typ, n: n, options: opts}
	s := a.Scanner()
	for s.Next() {
	}
	if s.err != nil {
		return Array{}, s.err
	}
	a.slack = len(a.b) - s.off
	return a, nil
}

// parseHeader checks the array's type/length word and record count
// against b and opts, and returns ea_len, the type and the count, the
// records not yet checked.
func parseHeader(b []byte, opts *Options) (eaLen int, typ pcp.Type, n int32, err error) {
	// Every header failure goes to one newError call: in WebAssembly
	// each call and its return is code (module size; see wasm/size).
	hdr := recordHeaderLen
	field, off, kind := "ea_type/ea_len", 0, error(ErrTruncated)
	if len(b) < 4 {
		goto fail
	}
	typ, eaLen = pcp.Type(be32(b)>>24), int(be32(b)&maxEALen)
	field, kind = "ea_type", ErrType
	if typ != pcp.TypeEvent && typ != pcp.TypeHighResEvent || opts.Type != 0 && opts.Type != typ {
		goto fail
	}
	field, kind = "ea_len", ErrLength
	if eaLen < arrayHeaderLen || (!opts.Lenient && eaLen%4 != 0) {
		goto fail
	}
	if eaLen > len(b) {
		kind = ErrTruncated
		goto fail
	}
	n = int32(be32(b[4:]))
	if typ == pcp.TypeHighResEvent {
		hdr = hrRecordHeaderLen
	}
	field, off, kind = "ea_nrecords", 4, ErrCount
	if n < 0 || int64(n) > int64((eaLen-arrayHeaderLen)/hdr) {
		goto fail
	}
	if lim := opts.maxRecords(); int64(n) > int64(lim) {
		return 0, 0, 0, wire.NewValueError("eventrec", "ea_nrecords", opts.Base+4, ErrLimit, int64(n), int64(lim))
	}
	return eaLen, typ, n, nil
fail:
	return 0, 0, 0, newError(field, opts.Base+off, kind)
}

// Value formats of a value set (pmValueSet.valfmt).
const (
	ValInsitu = 0 // PM_VAL_INSITU: the value word is the value
	ValDPTR   = 1 // PM_VAL_DPTR: the value word points to a value block
	ValSPTR   = 2 // PM_VAL_SPTR: same on the wire; usual for event arrays
)

// ParseValue is Parse for a value taken from a value set: it first
// rejects a valfmt that is not DPTR or SPTR with [ErrField] (field
// "valfmt", at opts.Base, the block's offset), then parses block as the
// array.
func ParseValue(valfmt uint32, block []byte, opts Options) (Array, error) {
	if valfmt != ValDPTR && valfmt != ValSPTR {
		return Array{}, newError("valfmt", opts.Base, ErrField)
	}
	return Parse(block, opts)
}

// Type returns pcp.TypeEvent or pcp.TypeHighResEvent.
func (a Array) Type() pcp.Type {
	if a.typ == 0 {
		return pcp.TypeEvent
	}
	return a.typ
}

// HighRes reports whether records carry 64-bit second/nanosecond stamps.
func (a Array) HighRes() bool { return a.typ == pcp.TypeHighResEvent }

// Len returns the number of records (ea_nrecords), missed markers
// included.
func (a Array) Len() int { return int(a.n) }

// Bytes returns the array's ea_len bytes, header included.
func (a Array) Bytes() []byte { return a.b }

// Slack returns the bytes inside ea_len after the last record. libpcp
// ignores them and [Builder] never writes any; a non-zero value is a
// diagnostic, not an error.
func (a Array) Slack() int { return a.slack }

// All returns the records in order. After [Parse] succeeded the
// error is always nil; it is there because the same walk validates.
func (a Array) All() iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		s := a.Scanner()
		for s.Next() {
			if !yield(s.rec, nil) {
				return
			}
		}
		if s.err != nil {
			yield(Record{}, s.err)
		}
	}
}

// Records returns the records in order, for arrays that [Parse]
// validated (where iteration cannot fail).
func (a Array) Records() iter.Seq[Record] {
	return func(yield func(Record) bool) {
		s := a.Scanner()
		for s.Next() {
			if !yield(s.rec) {
				return
			}
		}
	}
}

// Clone returns an Array over a private copy of the bytes.
func (a Array) Clone() Array {
	if a.b != nil {
		a.b = append([]byte(nil), a.b...)
	}
	return a
}
