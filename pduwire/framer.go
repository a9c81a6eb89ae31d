package pduwire

import (
	"encoding/binary"
	"iter"

	"github.com/perfwire/perfwire/internal/wire"
)

// Size ceilings for [Scanner] and [Reader] (docs/pcp-pdu.md §2.4, §2.5).
const (
	// DefaultMaxPDULen is the default of [Options.MaxPDULen], for PDUs a
	// client accepts from pmcd, whose results have no protocol ceiling
	// below INT_MAX − 1024; 64 MiB holds any realistic fetch reply.
	DefaultMaxPDULen = 64 << 20
	// ServerMaxPDULen is what pmcd and pmproxy accept from a client:
	// 64 KiB, len == 65536 included. Servers set it as
	// [Options.MaxPDULen].
	ServerMaxPDULen = 65536
	// MaxPDULen is PCP 7.2.1's absolute ceiling, INT_MAX − 1024; a larger
	// [Options.MaxPDULen] is lowered to it.
	MaxPDULen = 1<<31 - 1 - 1024
)

// Options configure [NewScanner], [NewReader] and [All]. The zero
// Options are the defaults: each zero field takes its own default.
type Options struct {
	// MaxPDULen rejects PDUs whose len is larger ([ErrLimit]); 0 (or a
	// negative value) selects [DefaultMaxPDULen], a value above
	// [MaxPDULen] is lowered to it.
	MaxPDULen int
}

// limit returns the ceiling o selects, as the framers compare it.
func (o Options) limit() uint32 {
	return uint32(min(wire.Default(o.MaxPDULen, DefaultMaxPDULen), MaxPDULen))
}

// PDU is one framed PDU: its offset in the stream, its header, and all
// of its bytes (header included), aliasing the input.
type PDU struct {
	Offset int64
	Header Header
	Bytes  []byte
}

// checkFrame validates a header read at stream offset off against limit.
func checkFrame(hdr []byte, off int64, limit uint32) (Header, error) {
	_ = hdr[11] // one bounds check for the reads below
	h := Header{
		Len:  binary.BigEndian.Uint32(hdr),
		Type: Type(binary.BigEndian.Uint32(hdr[4:])),
		From: int32(binary.BigEndian.Uint32(hdr[8:])),
	}
	switch {
	case h.Len < HeaderLen:
		return h, &ParseError{Format: "pduwire", Field: "header.len", Offset: off, Err: errHeaderLen}
	case h.Len > limit:
		return h, &ParseError{Format: "pduwire", Field: "header.len", Offset: off, Err: ErrLimit,
			Value: int64(h.Len), Limit: int64(limit), HasValue: true, HasLimit: true}
	case h.Type < 0:
		return h, &ParseError{Format: "pduwire", Field: "header.type", Offset: off + 4, Err: ErrType}
	}
	return h, nil
}

// Scanner cuts a byte slice holding a stream of PDUs into PDUs. A PDU
// may start at any byte offset (ATTR and LABEL lengths are not multiples
// of 4). It never copies: each PDU aliases the input. Use it as
//
//	s := pduwire.NewScanner(buf, pduwire.Options{})
//	for s.Next() {
//		p := s.PDU() // aliases buf
//	}
//	err := s.Err() // nil at a clean end of input
//
// [Reader] does the same over an io.Reader. A Scanner is a small value;
// copying it snapshots its position.
type Scanner struct {
	buf   []byte
	off   int
	limit uint32
	pdu   PDU
	err   error
}

// NewScanner returns a scanner over b that rejects PDUs longer than
// o.MaxPDULen bytes.
func NewScanner(b []byte, o Options) Scanner {
	return Scanner{buf: b, limit: o.limit()}
}

// Next advances to the next PDU and reports whether there is one. It
// returns false at the end of the input or on the first framing error:
// a len below 12 or above [Options.MaxPDULen] (kind "pdu_length", [ErrLimit]), a
// negative type ([ErrType]) or a PDU cut short ([ErrTruncated]), each at
// the offset of the offending PDU. The length is checked before the
// body is looked at.
func (s *Scanner) Next() bool {
	if s.err != nil || s.off >= len(s.buf) {
		return false
	}
	rest := s.buf[s.off:]
	if len(rest) < HeaderLen {
		s.err = fail("header", s.off, ErrTruncated)
		return false
	}
	h, err := checkFrame(rest, int64(s.off), s.limit)
	if err != nil {
		s.err = err
		return false
	}
	if uint64(h.Len) > uint64(len(rest)) {
		s.err = fail("body", s.off, ErrTruncated)
		return false
	}
	n := int(h.Len)
	s.pdu = PDU{Offset: int64(s.off), Header: h, Bytes: rest[:n:n]}
	s.off += n
	return true
}

// PDU returns the PDU found by the last successful Next.
func (s *Scanner) PDU() PDU { return s.pdu }

// Err returns the framing error that stopped Next, or nil at a clean
// end of input.
func (s *Scanner) Err() error { return s.err }

// Offset returns the number of bytes consumed by complete PDUs.
func (s *Scanner) Offset() int { return s.off }

// All iterates over the PDUs in b as a [Scanner] with options o finds
// them. A framing error is yielded once, with a zero PDU, as the last
// element.
func All(b []byte, o Options) iter.Seq2[PDU, error] {
	return func(yield func(PDU, error) bool) {
		s := NewScanner(b, o)
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
