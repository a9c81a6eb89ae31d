package eventrec

import (
	"math"

	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pcp"
)

// Builder appends one event array to a buffer, the way a PMDA packs event
// metrics: records with their parameters, back to back, ea_len and the
// counts back-patched. Values are padded with zero bytes; no alignment
// padding is ever inserted. Errors are sticky and reported by
// [Builder.Finish]. A Builder is used by pointer and is not safe for
// concurrent use.
//
//	b := eventrec.NewBuilder(buf[:0], pcp.TypeEvent)
//	b.AddRecord(sec, usec, eventrec.FlagPoint)
//	b.AddUint32(id, 7)
//	buf, err := b.Finish()
type Builder struct {
	buf     []byte
	start   int // offset of the array's type/length word in buf
	rec     int // offset of the open record's header, -1 if none
	typ     pcp.Type
	n       int32 // records so far
	nparams int32 // parameters of the open record
	missed  bool  // the open record is a missed marker
	err     error
}

// NewBuilder starts an array of type typ (pcp.TypeEvent or
// pcp.TypeHighResEvent) at the end of dst. Any other type makes Finish
// fail with [ErrType].
func NewBuilder(dst []byte, typ pcp.Type) *Builder {
	b := &Builder{}
	b.Reset(dst, typ)
	return b
}

// Reset reuses the builder for a new array appended to dst.
func (b *Builder) Reset(dst []byte, typ pcp.Type) {
	*b = Builder{buf: dst, start: len(dst), rec: -1, typ: typ}
	if typ != pcp.TypeEvent && typ != pcp.TypeHighResEvent {
		b.err = newError("ea_type", 0, ErrType)
	}
	b.buf = wire.AppendZeros(b.buf, arrayHeaderLen)
}

func (b *Builder) setErr(field string, kind error) {
	if b.err == nil {
		b.err = newError(field, len(b.buf)-b.start, kind)
	}
}

// closeRecord writes the open record's parameter count.
func (b *Builder) closeRecord() {
	if b.rec >= 0 && !b.missed && b.err == nil {
		hdr := recordHeaderLen
		if b.typ == pcp.TypeHighResEvent {
			hdr = hrRecordHeaderLen
		}
		wire.PutU32BE(b.buf, b.rec+hdr-4, uint32(b.nparams))
	}
	b.rec, b.nparams, b.missed = -1, 0, false
}

// addHeader appends a record header; frac is microseconds for EVENT
// arrays and nanoseconds for HIGHRES_EVENT arrays.
func (b *Builder) addHeader(sec, frac int64, flags Flags, n int32) {
	b.closeRecord()
	if b.err != nil {
		return
	}
	if b.typ == pcp.TypeHighResEvent {
		b.rec = len(b.buf)
		b.buf = wire.AppendU64BE(b.buf, uint64(sec))
		b.buf = wire.AppendU64BE(b.buf, uint64(frac))
	} else {
		if sec != int64(int32(sec)) || frac != int64(int32(frac)) {
			b.setErr("timestamp", ErrRange)
			return
		}
		b.rec = len(b.buf)
		b.buf = wire.AppendU32BE(b.buf, uint32(sec))
		b.buf = wire.AppendU32BE(b.buf, uint32(frac))
	}
	b.buf = wire.AppendU32BE(b.buf, uint32(flags))
	b.buf = wire.AppendU32BE(b.buf, uint32(n))
	b.n++
}

// AddRecord starts a record with the given timestamp and flags; the
// parameters added next belong to it. frac is raw: microseconds for an
// EVENT array, nanoseconds for a HIGHRES_EVENT array. Flags containing
// MISSED are refused (use [Builder.AddMissed]).
func (b *Builder) AddRecord(sec, frac int64, flags Flags) {
	if flags&FlagMissed != 0 {
		b.setErr("er_flags", ErrField)
		return
	}
	b.addHeader(sec, frac, flags, 0)
}

// AddMissed appends a missed-record marker counting n lost records
// (n ≥ 0). No parameters may follow it.
func (b *Builder) AddMissed(sec, frac int64, n int32) {
	if n < 0 {
		b.setErr("er_nparams", ErrCount)
		return
	}
	b.addHeader(sec, frac, FlagMissed, n)
	b.missed = true
}

// AddParam appends a parameter with a raw value to the open record.
// Fixed-size types need exactly their size; types other than the six
// numeric ones, STRING and AGGREGATE are refused.
func (b *Builder) AddParam(id pcp.ID, typ pcp.Type, value []byte) {
	if b.err != nil {
		return
	}
	switch fl := fixedLen(typ); {
	case b.rec < 0 || b.missed:
		b.setErr("parameter", ErrBuild)
		return
	case typ == pcp.TypeEvent || typ == pcp.TypeHighResEvent:
		b.setErr("ep_type", ErrType)
		return
	case fl < 0:
		b.setErr("ep_type", ErrType)
		return
	case fl > 0 && len(value) != fl, uint64(len(value))+4 > maxEALen:
		b.setErr("ep_len", ErrLength)
		return
	}
	b.buf = wire.AppendU32BE(b.buf, uint32(id))
	b.buf = wire.AppendU32BE(b.buf, uint32(typ)<<24|uint32(4+len(value)))
	start := len(b.buf)
	b.buf = append(b.buf, value...)
	b.buf = wire.AppendPad4(b.buf, start)
	b.nparams++
}

// addFixed appends a 4- or 8-byte big-endian value without a temporary.
func (b *Builder) addFixed(id pcp.ID, typ pcp.Type, v uint64, size int) {
	if b.err != nil {
		return
	}
	if b.rec < 0 || b.missed {
		b.setErr("parameter", ErrBuild)
		return
	}
	b.buf = wire.AppendU32BE(b.buf, uint32(id))
	b.buf = wire.AppendU32BE(b.buf, uint32(typ)<<24|uint32(4+size))
	if size == 4 {
		b.buf = wire.AppendU32BE(b.buf, uint32(v))
	} else {
		b.buf = wire.AppendU64BE(b.buf, v)
	}
	b.nparams++
}

// AddInt32 appends a PM_TYPE_32 parameter.
func (b *Builder) AddInt32(id pcp.ID, v int32) { b.addFixed(id, pcp.Type32, uint64(uint32(v)), 4) }

// AddUint32 appends a PM_TYPE_U32 parameter.
func (b *Builder) AddUint32(id pcp.ID, v uint32) { b.addFixed(id, pcp.TypeU32, uint64(v), 4) }

// AddInt64 appends a PM_TYPE_64 parameter.
func (b *Builder) AddInt64(id pcp.ID, v int64) { b.addFixed(id, pcp.Type64, uint64(v), 8) }

// AddUint64 appends a PM_TYPE_U64 parameter.
func (b *Builder) AddUint64(id pcp.ID, v uint64) { b.addFixed(id, pcp.TypeU64, v, 8) }

// AddFloat32 appends a PM_TYPE_FLOAT parameter.
func (b *Builder) AddFloat32(id pcp.ID, v float32) {
	b.addFixed(id, pcp.TypeFloat, uint64(math.Float32bits(v)), 4)
}

// AddFloat64 appends a PM_TYPE_DOUBLE parameter.
func (b *Builder) AddFloat64(id pcp.ID, v float64) {
	b.addFixed(id, pcp.TypeDouble, math.Float64bits(v), 8)
}

// AddString appends a PM_TYPE_STRING parameter; no NUL is added, as the
// PMDA library does not add one.
func (b *Builder) AddString(id pcp.ID, s string) {
	if b.err != nil {
		return
	}
	if b.rec < 0 || b.missed {
		b.setErr("parameter", ErrBuild)
		return
	}
	if uint64(len(s))+4 > maxEALen {
		b.setErr("ep_len", ErrLength)
		return
	}
	b.buf = wire.AppendU32BE(b.buf, uint32(id))
	b.buf = wire.AppendU32BE(b.buf, uint32(pcp.TypeString)<<24|uint32(4+len(s)))
	start := len(b.buf)
	b.buf = append(b.buf, s...)
	b.buf = wire.AppendPad4(b.buf, start)
	b.nparams++
}

// AddAggregate appends a PM_TYPE_AGGREGATE parameter.
func (b *Builder) AddAggregate(id pcp.ID, v []byte) { b.AddParam(id, pcp.TypeAggregate, v) }

// Finish closes the open record, writes the array header and returns the
// buffer with the array appended. It fails with the first error met while
// building ([ErrType], [ErrField], [ErrCount], [ErrBuild], [ErrLength],
// [ErrRange]) or with [ErrLength] when the array
// exceeds the 24-bit ea_len; on failure the returned buffer is the
// original dst.
func (b *Builder) Finish() ([]byte, error) {
	b.closeRecord()
	eaLen := len(b.buf) - b.start
	if b.err == nil && eaLen > maxEALen {
		b.err = newError("ea_len", 0, ErrLength)
	}
	if b.err != nil {
		return b.buf[:b.start], b.err
	}
	wire.PutU32BE(b.buf, b.start, uint32(b.typ)<<24|uint32(eaLen))
	wire.PutU32BE(b.buf, b.start+4, uint32(b.n))
	return b.buf, nil
}

// AppendArray appends a copy of a's records to dst through a Builder:
// the canonical encoding of a. The result equals a.Bytes() except in the
// pad bytes after each parameter value (up to its 4-byte boundary),
// which the builder zeroes while PMDAs leave residue there ("fo", "n/"
// seen from the sample PMDA) and libpcp never reads, and except that
// slack after the last record (see [Array.Slack]) is dropped. It fails
// only for arrays whose bytes changed after parsing.
func AppendArray(dst []byte, a Array) ([]byte, error) {
	var b Builder
	b.Reset(dst, a.Type())
	for r := range a.Records() {
		if n, ok := r.Missed(); ok {
			b.AddMissed(r.sec, r.frac, n)
			continue
		}
		b.AddRecord(r.sec, r.frac, r.flags)
		for p := range r.Params() {
			b.AddParam(p.ID, p.Type, p.Value)
		}
	}
	return b.Finish()
}
