package pduwire

import (
	"encoding/binary"
	"iter"
	"math"

	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pcp"
)

// Value formats of a value set (docs/pcp-pdu.md §4.7).
const (
	ValInsitu = 0 // the value word is the 32-bit value
	ValDPTR   = 1 // the value word is a word index to a value block
	ValSPTR   = 2 // same as DPTR on the wire
)

// Result is a validated, read-only view of a RESULT or HIGHRES_RESULT
// PDU. It aliases the PDU bytes and is valid while they are unchanged.
// Every rule of docs/pcp-pdu.md §4.8 has been checked by [ParseResult], so walking
// its value sets cannot fail.
type Result struct {
	pdu     []byte
	recOff  int
	HighRes bool  // HIGHRES_RESULT (64-bit seconds, nanoseconds)
	Sec     int64 // seconds since the epoch (tv_sec, sign-extended for RESULT)
	// Nsec is the sub-second part in nanoseconds; for RESULT it is
	// tv_usec × 1000, as libpcp converts it (tv_usec is not range-checked).
	Nsec    int64
	NumPMID int // number of value sets
}

// ParseResult validates a whole RESULT or HIGHRES_RESULT PDU (header
// included) and returns a view of it. It allocates nothing unless value
// blocks are referenced out of address order, which libpcp never does; then
// it allocates one bitmap of len/32 bytes. Failures: [ErrType],
// [ErrTruncated], [ErrCount], [ErrTrailing] and the kinds "pdu_length",
// "pdu_value_format", "pdu_value_block", "pdu_overlap", "pdu_contiguity"
// and "pdu_event" (told apart by Code), each as a [*ParseError] with the
// offset in the PDU.
func ParseResult(pdu []byte) (Result, error) {
	r, err := resultHeader(pdu)
	if err != nil {
		return Result{}, err
	}
	if err := r.validate(); err != nil {
		return Result{}, err
	}
	return r, nil
}

// resultHeader checks the header and numpmid of a whole RESULT or
// HIGHRES_RESULT PDU and returns a view whose value sets are unchecked.
func resultHeader(pdu []byte) (Result, error) {
	if err := head(pdu, TypeResult, 0); err != nil {
		return Result{}, err
	}
	r := Result{pdu: pdu, HighRes: Type(be32(pdu, 4)) == TypeHighResResult}
	var numpmid int32
	numOff := 20
	// Every failure goes to one fail call and one return (module size;
	// see wasm/size).
	bad := failure{"RESULT", len(pdu), ErrTruncated}
	if r.HighRes {
		if len(pdu) < 32 {
			bad.field = "HIGHRES_RESULT"
			goto fail
		}
		numpmid = int32(be32(pdu, 12))
		r.Sec = int64(binary.BigEndian.Uint64(pdu[16:]))
		r.Nsec = int64(binary.BigEndian.Uint64(pdu[24:]))
		r.recOff = 32
		numOff = 12
	} else {
		if len(pdu) < 24 {
			goto fail
		}
		r.Sec = int64(int32(be32(pdu, 12)))
		r.Nsec = int64(int32(be32(pdu, 16))) * 1000
		numpmid = int32(be32(pdu, 20))
		r.recOff = 24
	}
	if numpmid < 0 || int64(numpmid) > int64(len(pdu)) {
		bad = failure{"RESULT.numpmid", numOff, ErrCount}
		goto fail
	}
	r.NumPMID = int(numpmid)
	return r, nil
fail:
	return Result{}, fail(bad.field, bad.off, bad.kind)
}

// ParseResultBody validates numpmid value sets that start at byte off of b
// and run to its end, laid out as in a RESULT PDU: value block pointers
// are word indexes from the start of b. It reads containers that hold a
// RESULT's value sets behind a header of their own, as PCP archive
// records do, without copying them; the caller fills in Sec and Nsec.
// It fails as [ParseResult] does once the header is checked, with offsets
// counted from the start of b.
func ParseResultBody(b []byte, off, numpmid int) (Result, error) {
	if off < 0 || off > len(b) {
		return Result{}, fail("RESULT", len(b), ErrTruncated)
	}
	if numpmid < 0 || numpmid > len(b) {
		return Result{}, fail("RESULT.numpmid", off, ErrCount)
	}
	r := Result{pdu: b, recOff: off, NumPMID: numpmid}
	if err := r.validate(); err != nil {
		return Result{}, err
	}
	return r, nil
}

// validate walks the records once, checking each pointer and its block,
// then checks that the blocks tile the bytes after the records exactly.
func (r *Result) validate() error {
	pdu := r.pdu
	n := uint64(len(pdu))
	off := r.recOff
	t := tiling{minStart: math.MaxUint64, ordered: true}
	for i := 0; i < r.NumPMID; i++ {
		if uint64(off)+8 > n {
			return fail("valueset", off, ErrTruncated)
		}
		numval := int32(binary.BigEndian.Uint32(pdu[off+4:]))
		if numval <= 0 {
			off += 8
			continue
		}
		if int64(numval) > int64(n) || int64(numval) >= (math.MaxInt32-20)/8 {
			return fail("valueset.numval", off+4, ErrCount)
		}
		if uint64(off)+12+8*uint64(numval) > n {
			return fail("valueset.vlist", off, ErrTruncated)
		}
		valfmt := binary.BigEndian.Uint32(pdu[off+8:])
		if valfmt > ValSPTR {
			return fail("valueset.valfmt", off+8, errValueFormat)
		}
		vp := off + 12
		off = vp + 8*int(numval)
		if valfmt == ValInsitu {
			continue
		}
		if err := t.add(pdu, pdu[vp:off], vp); err != nil {
			return err
		}
	}
	return t.finish(pdu, r.recOff, off, r.NumPMID)
}

// finish checks, after the last record (which ends at recEnd), the rules
// of the whole PDU: nothing trails the records when there are no value
// blocks; otherwise the blocks start right after the records, tile the
// rest of the PDU, and (if they came out of address order) do not overlap.
func (t *tiling) finish(pdu []byte, recOff, recEnd, numpmid int) error {
	n := uint64(len(pdu))
	// One failure path, all at recEnd: the field and kind by rule.
	field, kind := "RESULT", ErrTrailing
	switch {
	case t.nptr == 0:
		if uint64(recEnd) == n {
			return nil
		}
	case t.minStart != uint64(recEnd):
		field, kind = "value.index", errContiguity
	case t.sum != n-uint64(recEnd):
		field, kind = "value blocks", errContiguity
	case !t.ordered:
		// The slow path for blocks referenced out of address order,
		// here rather than in a function of its own (module size): the
		// words of every referenced block marked in a bitmap, failing
		// on the first word claimed twice.
		r := Result{pdu: pdu, recOff: recOff, NumPMID: numpmid}
		words := (len(pdu) - recEnd) / 4
		seen := make([]uint64, (words+63)/64)
		s := r.Scan()
		for s.Next() {
			vs := s.ValueSet()
			if vs.ValFmt == ValInsitu {
				continue
			}
			for j := 0; j < vs.Len(); j++ {
				v := vs.Value(j)
				start := 4 * int(v.Word)
				end := start + (len(v.blk)+3)&^3
				for w := (start - recEnd) / 4; w < (end-recEnd)/4; w++ {
					if seen[w/64]&(1<<(w%64)) != 0 {
						return fail("value.index", vs.vlist+8*j+4, errOverlap)
					}
					seen[w/64] |= 1 << (w % 64)
				}
			}
		}
		return nil
	default:
		return nil
	}
	return fail(field, recEnd, kind)
}

// tiling accumulates what validate needs to prove that the value blocks
// tile the bytes after the records: their count, total padded size,
// lowest start, and whether they came in address order.
type tiling struct {
	nptr     int
	sum      uint64
	minStart uint64
	prevEnd  uint64
	ordered  bool
}

// add checks the block of every pointer value in vl (one value set's
// list, at PDU offset vp) and adds it to the tiling. The loop keeps its
// state in locals and walks vl by re-slicing, which keeps it in registers.
func (t *tiling) add(pdu, vl []byte, vp int) error {
	n := uint64(len(pdu))
	sum, minStart, prevEnd, ordered := t.sum, t.minStart, t.prevEnd, t.ordered
	t.nptr += len(vl) / 8
	for wo := vp + 4; len(vl) >= 8; wo += 8 {
		w := binary.BigEndian.Uint32(vl[4:8])
		vl = vl[8:]
		start := 4 * uint64(w)
		if w > math.MaxInt32 || start+4 > n {
			return fail("value.index", wo, errValueBlock)
		}
		hdr := binary.BigEndian.Uint32(pdu[start : start+4])
		vlen := uint64(hdr & 0xffffff)
		if vlen < 4 || vlen > n-start {
			return fail("value.vlen", int(start), errValueBlock)
		}
		// docs/pcp-pdu.md §4.8 rule 7 (fixed-size payloads) by table, so the common
		// blocks cost no call; event arrays get docs/pcp-events.md §6.2.
		typ := uint8(hdr >> 24)
		if want := fixedVlen[typ]; want != 0 && vlen != uint64(want) {
			return fail("value.vlen", int(start), errValueBlock)
		}
		if typ == uint8(pcp.TypeEvent) || typ == uint8(pcp.TypeHighResEvent) {
			// An event-record array, validated so that a RESULT which
			// passes ParseResult holds only well-formed arrays. Package
			// eventrec owns the rules; here they run as libpcp applies
			// them (Lenient), plus the block's 4-byte size. A failure
			// matches both errEvent and eventrec's own kind. Kept
			// inline, not a function of its own: module size; see
			// wasm/size.
			off := int(start)
			if vlen%4 != 0 {
				return fail("event.ea_len", off, errEvent)
			}
			_, err := eventrec.Parse(pdu[start:start+vlen], eventrec.Options{Type: pcp.Type(typ), Lenient: true, Base: off})
			if err != nil {
				pe, ok := err.(*eventrec.ParseError) // Parse returns it itself, never wrapped
				if !ok {
					return fail("event", off, errEvent)
				}
				return &wire.Error{Format: "pduwire", Field: "event." + pe.Field, Offset: pe.Offset, Err: &eventKind{inner: pe.Err}}
			}
		}
		size := (vlen + 3) &^ 3
		sum += size
		minStart = min(minStart, start)
		ordered = ordered && start >= prevEnd
		prevEnd = start + size
	}
	t.sum, t.minStart, t.prevEnd, t.ordered = sum, minStart, prevEnd, ordered
	return nil
}

// fixedVlen is the exact vlen (header word included) of the value blocks
// whose type has a fixed size, 0 for the others (docs/pcp-pdu.md §4.8 rule 7).
var fixedVlen = [256]uint8{pcp.Type64: 12, pcp.TypeU64: 12, pcp.TypeDouble: 12, pcp.TypeFloat: 8}

// Scan returns a scanner over the value sets, the allocation-free way to
// walk a result:
//
//	s := r.Scan()
//	for s.Next() { vs := s.ValueSet(); ... }
func (r *Result) Scan() ValueSetScanner {
	return ValueSetScanner{pdu: r.pdu, off: r.recOff, left: r.NumPMID}
}

// ValueSetScanner walks the value sets of a [Result] in order.
type ValueSetScanner struct {
	pdu  []byte
	off  int
	left int
	vs   ValueSet
}

// Next advances to the next value set; it reports false after the last.
func (s *ValueSetScanner) Next() bool {
	if s.left == 0 {
		return false
	}
	s.left--
	p := s.pdu
	vs := ValueSet{pdu: p, PMID: pcp.ID(binary.BigEndian.Uint32(p[s.off:])), NumVal: int32(binary.BigEndian.Uint32(p[s.off+4:]))}
	if vs.NumVal > 0 {
		vs.ValFmt = uint8(binary.BigEndian.Uint32(p[s.off+8:]))
		vs.vlist = s.off + 12
		end := vs.vlist + 8*int(vs.NumVal)
		vs.vl = p[vs.vlist:end:end]
		s.off += 12 + 8*int(vs.NumVal)
	} else {
		s.off += 8
	}
	s.vs = vs
	return true
}

// ValueSet returns the value set found by the last Next.
func (s *ValueSetScanner) ValueSet() ValueSet { return s.vs }

// ValueSets iterates over the value sets of r.
func (r *Result) ValueSets() iter.Seq[ValueSet] {
	return func(yield func(ValueSet) bool) {
		s := r.Scan()
		for s.Next() {
			if !yield(s.vs) {
				return
			}
		}
	}
}

// ValueSet is one metric's values in a [Result].
type ValueSet struct {
	pdu   []byte
	vl    []byte // the NumVal (inst, value) pairs
	vlist int    // vl's offset in the PDU
	PMID  pcp.ID
	// NumVal is the number of values when positive, 0 for none, and a
	// negative PM_ERR_* code when the metric failed.
	NumVal int32
	ValFmt uint8 // ValInsitu, ValDPTR or ValSPTR (0 when NumVal ≤ 0)
}

// Len returns the number of values (0 when NumVal ≤ 0).
func (vs ValueSet) Len() int { return int(max(vs.NumVal, 0)) }

// Value returns the i'th value, 0 ≤ i < Len(); it panics otherwise, like
// a slice index. It is small enough to inline, and [Value] small enough to
// live in registers, so walking a value set costs a few loads per value.
func (vs *ValueSet) Value(i int) Value {
	// vl has no spare capacity: i ≥ NumVal panics. Word's read is
	// written out here, not called, to keep Value within the inlining
	// budget: a call per value costs more than the walk itself.
	x := binary.BigEndian.Uint64(vs.vl[8*i:])
	v := Value{Inst: int32(x >> 32), Word: uint32(x)}
	if vs.ValFmt != ValInsitu {
		v.blk = block(vs.pdu, v.Word)
	}
	return v
}

// Word returns the i-th value's instance and word (the insitu value
// itself, or its block's word index) without looking at a block: for a
// caller that handles insitu values itself, as Value builds a block's
// view. It panics for i ≥ Len(), as Value does.
func (vs *ValueSet) Word(i int) (inst int32, word uint32) {
	// Small enough to inline, in WebAssembly too (where the read is a
	// load per byte: it has no byte swap to combine them with).
	x := binary.BigEndian.Uint64(vs.vl[8*i:])
	return int32(x >> 32), uint32(x)
}

// PDU returns the PDU vs is a view of. A value block's word index (the
// word Word gives for a DPTR or SPTR value) is its offset in 4-byte words
// from the PDU's start, and ParseResult has checked each block's bounds:
// a caller may read blocks there itself, where a call to Value per value
// costs too much (a call per value, in WebAssembly above all).
func (vs *ValueSet) PDU() []byte { return vs.pdu }

// block returns the value block at word index w, header word included;
// ParseResult has checked the pointer and the block's bounds.
func block(pdu []byte, w uint32) []byte {
	// Sliced once at start, then cut to vlen: one bounds check fewer
	// than slicing pdu at both ends.
	b := pdu[4*int(w):]
	vlen := binary.BigEndian.Uint32(b) & 0xffffff
	return b[:vlen:vlen]
}

// Events returns the event record array of a PM_TYPE_EVENT or
// PM_TYPE_HIGHRES_EVENT value as a view into the PDU (see package
// eventrec). ParseResult has validated it, so this fails only for a value
// that is not an event array (errEvent).
func (v Value) Events() (eventrec.Array, error) {
	t := v.BlockType()
	if t != pcp.TypeEvent && t != pcp.TypeHighResEvent {
		return eventrec.Array{}, fail("value.events", 4*int(v.Word), errEvent)
	}
	return eventrec.Parse(v.blk, eventrec.Options{Type: t, Lenient: true, Base: 4 * int(v.Word)})
}

// Values iterates over the values of vs.
func (vs ValueSet) Values() iter.Seq[Value] {
	return func(yield func(Value) bool) {
		for i := range vs.Len() {
			if !yield(vs.Value(i)) {
				return
			}
		}
	}
}

// Value is one instance's value. For an insitu value Word is the value
// itself; for a value block it is the block's word index in the PDU, and
// [Value.BlockType] and [Value.Payload] describe the block (a view of the
// PDU). Value is 32 bytes on purpose: the compiler keeps a struct that
// small in registers, where a larger one is copied through memory on
// every call.
type Value struct {
	Inst int32  // instance number, pcp.InNull for singular metrics
	Word uint32 // the insitu value, or the block's word index
	blk  []byte // the whole value block, header word included; nil for insitu
}

// Block reports whether the value is a value block (DPTR or SPTR), not
// an insitu word.
func (v Value) Block() bool { return v.blk != nil }

// BlockType is the block header's vtype (0 for an insitu value).
func (v Value) BlockType() pcp.Type {
	if len(v.blk) < 4 {
		return 0
	}
	return pcp.Type(v.blk[0])
}

// Payload is the block after its header word, vlen − 4 bytes (nil for an
// insitu value).
func (v Value) Payload() []byte {
	if len(v.blk) < 4 {
		return nil
	}
	return v.blk[4:]
}

// Raw returns the value in the form [pcp.Extract] takes.
func (v Value) Raw() pcp.Raw {
	return pcp.Raw{Insitu: v.blk == nil, Word: v.Word, Block: v.Payload()}
}

// Uint64 returns a 64-bit block payload (64, U64, DOUBLE bits) or the
// zero-extended insitu word.
func (v Value) Uint64() uint64 {
	if p := v.Payload(); len(p) == 8 {
		return binary.BigEndian.Uint64(p)
	} else if len(p) >= 4 {
		return uint64(binary.BigEndian.Uint32(p))
	}
	return uint64(v.Word)
}

// Float64 interprets the value as DOUBLE block, FLOAT block, or insitu
// FLOAT bits (the legacy encoding), by size.
func (v Value) Float64() float64 {
	p := v.Payload()
	if len(p) == 8 {
		return math.Float64frombits(binary.BigEndian.Uint64(p))
	}
	// Uint64's low word, read here to stay within the inlining budget.
	w := v.Word
	if len(p) >= 4 {
		w = binary.BigEndian.Uint32(p)
	}
	return float64(math.Float32frombits(w))
}
