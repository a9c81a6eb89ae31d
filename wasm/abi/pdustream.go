package abi

import (
	"errors"

	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pduwire"
)

// PDUSession decodes a PCP byte stream fed piece by piece (pdu_stream,
// pdu_feed, pdu_end): each piece yields the PDUs it completes, so any
// chunking of a stream gives the PDUs and the error DecodePDUs gives for
// the whole. At most one incomplete PDU waits (up to the limit).
type PDUSession struct {
	opts     pduwire.Options
	pending  []byte
	consumed int64 // stream bytes before pending[0]
	done     bool
	err      error
	buf      []byte
}

// NewPDUSession starts a stream session accepting PDUs up to limit bytes
// (0: pduwire's default client limit).
func NewPDUSession(limit int) *PDUSession {
	return &PDUSession{opts: pduwire.Options{MaxPDULen: limit}}
}

// Feed decodes the PDUs chunk completes. After an error the session is
// done and further pieces are ignored.
func (s *PDUSession) Feed(chunk []byte) PDUStream {
	res := PDUStream{PDUs: []Raw{}}
	if s.done {
		res.Error = ErrorOf(s.err)
		return res
	}
	s.pending = append(s.pending, chunk...)
	off := 0
	for len(s.pending)-off >= pduwire.HeaderLen {
		sp := pduwire.NewScanner(s.pending[off:], s.opts)
		if !sp.Next() {
			if errors.Is(sp.Err(), pduwire.ErrTruncated) {
				break // the body has not all arrived
			}
			s.fail(shiftError(sp.Err(), int(s.consumed)+off))
			break
		}
		p := sp.PDU()
		p.Offset = s.consumed + int64(off)
		var err error
		if s.buf, err = AppendPDU(s.buf[:0], "", p); err != nil {
			s.fail(err)
			break
		}
		res.PDUs = append(res.PDUs, Raw(append([]byte(nil), s.buf...)))
		off += len(p.Bytes)
	}
	if !s.done {
		s.consumed += int64(off)
		s.pending = append(s.pending[:0], s.pending[off:]...)
	}
	res.Error = ErrorOf(s.err)
	return res
}

// End declares the stream finished: a PDU left incomplete is the
// truncation error DecodePDUs reports for it.
func (s *PDUSession) End() PDUStream {
	res := PDUStream{PDUs: []Raw{}}
	if !s.done && len(s.pending) > 0 {
		sp := pduwire.NewScanner(s.pending, s.opts)
		sp.Next()
		s.fail(shiftError(sp.Err(), int(s.consumed)))
	}
	s.done = true
	res.Error = ErrorOf(s.err)
	return res
}

func (s *PDUSession) fail(err error) {
	s.err, s.done, s.pending = err, true, nil
}

// shiftError makes a record-relative decoding error stream-relative.
func shiftError(err error, base int) error {
	if we, ok := errors.AsType[*wire.Error](err); ok {
		c := *we
		c.Offset += int64(base)
		return &c
	}
	return wire.NewError("dlt", "message", base, err)
}
