package pduwire

import (
	"encoding/binary"
	"math"

	"github.com/perfwire/perfwire/pcp"
)

// ResultScanner reads a RESULT or HIGHRES_RESULT in one pass: each value
// set is checked, record and value blocks, when Next reaches it, with the
// rules [ParseResult] applies, and its values are then read from the
// bytes just checked, instead of a whole-PDU validation before the first
// value. It is the way to read every value of a result once:
//
//	rr, err := pduwire.NewResultScanner(pdu)
//	if err != nil { ... }
//	for rr.Next() {
//		vs := rr.ValueSet() // checked: Value(i) cannot fail
//		for i := range vs.Len() {
//			v := vs.Value(i)
//		}
//	}
//	if err := rr.Err(); err != nil { ... } // a bad PDU: drop what was read
//
// The rules that concern the PDU as a whole (the value blocks tile the
// bytes after the records, nothing trails them, no two values share a
// block) can be checked only after the last value set: Next checks them
// when it returns false, and [ResultScanner.Err] reports them. A PDU is
// good only if Err is nil after Next has returned false; Err then reports
// the same failure, at the same offset, as ParseResult. A scanner stopped
// early has checked only the sets it has read.
//
// BenchmarkResultScanner1000 against BenchmarkResultView1000 measures it
// against ParseResult followed by [Result.Scan]. Value-at-a-time checking
// (a call per value) was measured slower than checking a set at a time.
//
// A ResultScanner allocates nothing (but for the bitmap ParseResult also
// builds when blocks are referenced out of address order, which libpcp
// never does) and aliases pdu. Copying it snapshots its position.
type ResultScanner struct {
	HighRes bool  // HIGHRES_RESULT (64-bit seconds, nanoseconds)
	Sec     int64 // seconds since the epoch, as in [Result]
	Nsec    int64 // sub-second part in nanoseconds, as in [Result]
	NumPMID int   // number of value sets

	pdu    []byte
	recOff int // the first record
	off    int // the next record
	left   int // value sets not yet read
	vs     ValueSet
	t      tiling
	err    error
	done   bool // the whole-PDU rules have been checked
}

// NewResultScanner checks the header and the value set count of a whole
// RESULT or HIGHRES_RESULT PDU and returns a scanner before its first
// value set. It fails as [ParseResult] does on those (kind "pdu_length",
// [ErrType], [ErrTruncated], [ErrCount]); the rest is checked by
// [ResultScanner.Next].
func NewResultScanner(pdu []byte) (ResultScanner, error) {
	r, err := resultHeader(pdu)
	if err != nil {
		return ResultScanner{}, err
	}
	return ResultScanner{
		HighRes: r.HighRes, Sec: r.Sec, Nsec: r.Nsec, NumPMID: r.NumPMID,
		pdu: pdu, recOff: r.recOff, off: r.recOff, left: r.NumPMID,
		t: tiling{minStart: math.MaxUint64, ordered: true},
	}, nil
}

// Next advances to the next value set and checks it: its record (count,
// value format, the value list inside the PDU) and, for pointer formats,
// every value block it references (bounds, size, event arrays). It
// returns false after the last set, once the whole-PDU rules are checked
// too, or at the first failure; [ResultScanner.Err] says which. The
// failures are those of ParseResult, as [*ParseError] values.
func (rr *ResultScanner) Next() bool {
	if rr.err != nil {
		return false
	}
	if rr.left == 0 {
		if !rr.done {
			rr.done = true
			rr.vs = ValueSet{}
			rr.err = rr.t.finish(rr.pdu, rr.recOff, rr.off, rr.NumPMID)
		}
		return false
	}
	pdu := rr.pdu
	n := uint64(len(pdu))
	off := rr.off
	if uint64(off)+8 > n {
		rr.err = fail("valueset", off, ErrTruncated)
		return false
	}
	rr.left--
	vs := ValueSet{pdu: pdu, PMID: pcp.ID(binary.BigEndian.Uint32(pdu[off:])), NumVal: int32(binary.BigEndian.Uint32(pdu[off+4:]))}
	if vs.NumVal <= 0 {
		rr.off = off + 8
		rr.vs = vs
		return true
	}
	numval := vs.NumVal
	if int64(numval) > int64(n) || int64(numval) >= (math.MaxInt32-20)/8 {
		rr.err = fail("valueset.numval", off+4, ErrCount)
		return false
	}
	if uint64(off)+12+8*uint64(numval) > n {
		rr.err = fail("valueset.vlist", off, ErrTruncated)
		return false
	}
	valfmt := binary.BigEndian.Uint32(pdu[off+8:])
	if valfmt > ValSPTR {
		rr.err = fail("valueset.valfmt", off+8, errValueFormat)
		return false
	}
	vs.ValFmt = uint8(valfmt)
	vs.vlist = off + 12
	end := vs.vlist + 8*int(numval)
	vs.vl = pdu[vs.vlist:end:end]
	rr.off = end
	if valfmt != ValInsitu {
		if err := rr.t.add(pdu, vs.vl, vs.vlist); err != nil {
			rr.err = err
			return false
		}
	}
	rr.vs = vs
	return true
}

// ValueSet returns the value set checked by the last successful Next.
func (rr *ResultScanner) ValueSet() ValueSet { return rr.vs }

// Err returns the failure that stopped Next, or nil. Nil after Next has
// returned false means the whole PDU passes [ParseResult].
func (rr *ResultScanner) Err() error { return rr.err }

// ResultReader is the name ResultScanner had: a Reader in this SDK
// reads an io.Reader, a Scanner walks bytes.
//
// Deprecated: use [ResultScanner].
type ResultReader = ResultScanner

// NewResultReader is the name NewResultScanner had.
//
// Deprecated: use [NewResultScanner].
func NewResultReader(pdu []byte) (ResultScanner, error) { return NewResultScanner(pdu) }
