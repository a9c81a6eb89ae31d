package pduwire

import (
	"encoding/binary"
	"iter"
)

// Size ceilings for [Splitter] and [Reader] (docs/pcp-pdu.md §2.4, §2.5).
const (
	// DefaultServerLimit is what pmcd and pmproxy accept from a client:
	// 64 KiB, len == 65536 included.
	DefaultServerLimit = 65536
	// DefaultClientLimit bounds PDUs a client accepts from pmcd, whose
	// results have no protocol ceiling below INT_MAX − 1024; 64 MiB
	// holds any realistic fetch reply.
	DefaultClientLimit = 64 << 20
	// MaxLimit is PCP 7.2.1's absolute ceiling, INT_MAX − 1024.
	MaxLimit = 1<<31 - 1 - 1024
)

// PDU is one framed PDU: its offset in the stream, its header, and all
// of its bytes (header included), aliasing the input.
type PDU struct {
	Offset int64
	Header Header
	Bytes  []byte
}

// checkFrame validates a header read at stream offset off against limit.
func checkFrame(hdr []byte, off int64, limit uint32) (Header, error) {
	h := Header{
		Len:  binary.BigEndian.Uint32(hdr),
		Type: Type(binary.BigEndian.Uint32(hdr[4:])),
		From: int32(binary.BigEndian.Uint32(hdr[8:])),
	}
	switch {
	case h.Len < HeaderLen:
		return h, &ParseError{Format: "pduwire", Field: "header.len", Offset: off, Err: ErrHeaderLen}
	case h.Len > limit:
		return h, &ParseError{Format: "pduwire", Field: "header.len", Offset: off, Err: ErrLimit,
			Value: int64(h.Len), Limit: int64(limit), HasValue: true, HasLimit: true}
	case h.Type < 0:
		return h, &ParseError{Format: "pduwire", Field: "header.type", Offset: off + 4, Err: ErrType}
	}
	return h, nil
}

// clampLimit maps a caller's limit to the range the framers support:
// values ≤ 0 select def, values above MaxLimit are lowered to it.
func clampLimit(limit, def int) uint32 {
	switch {
	case limit <= 0:
		return uint32(def)
	case limit > MaxLimit:
		return MaxLimit
	}
	return uint32(limit)
}

// Splitter cuts a byte slice holding a stream of PDUs into PDUs. A PDU
// may start at any byte offset (ATTR and LABEL lengths are not multiples
// of 4). It never copies: each PDU aliases the input. Use it as
//
//	s := pduwire.NewSplitter(buf, 0)
//	for s.Next() { p := s.PDU(); ... }
//	if err := s.Err(); err != nil { ... }
//
// A Splitter is a small value; copying it snapshots its position.
type Splitter struct {
	buf   []byte
	off   int
	limit uint32
	pdu   PDU
	err   error
}

// NewSplitter returns a splitter over b that rejects PDUs longer than
// limit bytes; limit ≤ 0 selects [DefaultClientLimit].
func NewSplitter(b []byte, limit int) Splitter {
	return Splitter{buf: b, limit: clampLimit(limit, DefaultClientLimit)}
}

// Next advances to the next PDU and reports whether there is one. It
// returns false at the end of the input or on the first framing error:
// a len below 12 or above the limit ([ErrHeaderLen], [ErrLimit]), a
// negative type ([ErrType]) or a PDU cut short ([ErrTruncated]), each at
// the offset of the offending PDU. The length is checked before the
// body is looked at.
func (s *Splitter) Next() bool {
	if s.err != nil || s.off >= len(s.buf) {
		return false
	}
	rest := s.buf[s.off:]
	if len(rest) < HeaderLen {
		s.err = &ParseError{Format: "pduwire", Field: "header", Offset: int64(s.off), Err: ErrTruncated}
		return false
	}
	h, err := checkFrame(rest, int64(s.off), s.limit)
	if err != nil {
		s.err = err
		return false
	}
	if uint64(h.Len) > uint64(len(rest)) {
		s.err = &ParseError{Format: "pduwire", Field: "body", Offset: int64(s.off), Err: ErrTruncated}
		return false
	}
	n := int(h.Len)
	s.pdu = PDU{Offset: int64(s.off), Header: h, Bytes: rest[:n:n]}
	s.off += n
	return true
}

// PDU returns the PDU found by the last successful Next.
func (s *Splitter) PDU() PDU { return s.pdu }

// Err returns the framing error that stopped Next, or nil.
func (s *Splitter) Err() error { return s.err }

// Offset returns the number of bytes consumed by complete PDUs.
func (s *Splitter) Offset() int { return s.off }

// All iterates over the PDUs in b (limit as for [NewSplitter]). A framing
// error is yielded once, with a zero PDU, as the last element.
func All(b []byte, limit int) iter.Seq2[PDU, error] {
	return func(yield func(PDU, error) bool) {
		s := NewSplitter(b, limit)
		for s.Next() {
			if !yield(s.PDU(), nil) {
				return
			}
		}
		if s.err != nil {
			yield(PDU{}, s.err)
		}
	}
}
