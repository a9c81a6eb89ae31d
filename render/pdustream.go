package render

import (
	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/schema"
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
	last     int // PDUs in the last result: the next one likely needs the same array header
}

// NewPDUSession starts a stream session accepting PDUs up to limit bytes
// (0: pduwire's default client limit).
func NewPDUSession(limit int) *PDUSession {
	return &PDUSession{opts: pduwire.Options{MaxPDULen: limit}}
}

// Feed decodes the PDUs chunk completes. After an error the session is
// done and further pieces are ignored. It is AppendFeed's result as a
// value.
func (s *PDUSession) Feed(chunk []byte) schema.PDUStream {
	return pduStream(s.AppendFeed(nil, chunk))
}

// End declares the stream finished: a PDU left incomplete is the
// truncation error DecodePDUs reports for it.
func (s *PDUSession) End() schema.PDUStream {
	return pduStream(s.AppendEnd(nil))
}

// pduStream reads back a PDUStream that AppendFeed or AppendEnd wrote.
func pduStream(b []byte) schema.PDUStream {
	res := schema.PDUStream{}
	if _, err := res.UnmarshalMsg(b); err != nil {
		panic("abi: a PDU stream result does not read back: " + err.Error())
	}
	if res.PDUs == nil {
		res.PDUs = []schema.Raw{}
	}
	return res
}

// AppendFeed appends to dst the MessagePack PDUStream of the PDUs chunk
// completes, each written in place (pdu_feed): no PDU is built as a
// value or copied on its own. The session keeps only the bytes of an
// incomplete PDU, copied.
func (s *PDUSession) AppendFeed(dst, chunk []byte) []byte {
	o := beginList(dst, 0x82, "\xa4pdus", s.last)
	if s.done {
		return o.end(s.err)
	}
	data := chunk
	if len(s.pending) > 0 {
		s.pending = append(s.pending, chunk...)
		data = s.pending
	}
	off := 0
	sp := pduwire.NewScanner(data, s.opts)
	var err error
	var lab pduwire.LabelPDU // reused by the call's LABEL PDUs, kept no longer
	for len(data)-off >= pduwire.HeaderLen {
		if !sp.Next() {
			// The Scanner's errors are *wire.Error values of its kinds:
			// tested directly, without errors.Is (module size).
			if we, ok := sp.Err().(*wire.Error); ok && we.Err == pduwire.ErrTruncated {
				break // the body has not all arrived
			}
			err = shiftError(sp.Err(), int(s.consumed))
			break
		}
		p := sp.PDU()
		p.Offset += s.consumed
		if o.b, err = appendPDU(o.b, "", p, &lab); err != nil {
			break
		}
		o.n++
		off += len(p.Bytes)
	}
	if err != nil {
		s.fail(err) // one call for both failures
	} else {
		s.consumed += int64(off)
		// Overlapping when data is pending: append moves the bytes down.
		s.pending = append(s.pending[:0], data[off:]...)
	}
	s.last = o.n
	return o.end(s.err)
}

// AppendEnd appends the PDUStream of pdu_end: no PDUs, and a PDU left
// incomplete as the truncation error DecodePDUs reports for it.
func (s *PDUSession) AppendEnd(dst []byte) []byte {
	if !s.done && len(s.pending) > 0 {
		sp := pduwire.NewScanner(s.pending, s.opts)
		sp.Next()
		s.fail(shiftError(sp.Err(), int(s.consumed)))
	}
	s.done = true
	o := beginList(dst, 0x82, "\xa4pdus", 0)
	return o.end(s.err)
}

func (s *PDUSession) fail(err error) {
	s.err, s.done, s.pending = err, true, nil
}

// shiftError makes a record-relative decoding error stream-relative.
func shiftError(err error, base int) error {
	// The decoders return their *wire.Error itself, never wrapped.
	if we, ok := err.(*wire.Error); ok {
		c := *we
		c.Offset += int64(base)
		return &c
	}
	return wire.NewError("dlt", "message", base, err)
}

// AppendPDUs appends to dst the MessagePack PDUStream of DecodePDUs(in,
// limit), each PDU written in place (pdu_decode).
func AppendPDUs(dst, in []byte, limit int) []byte {
	o := beginList(dst, 0x82, "\xa4pdus", len(in)/256) // PDUs of a pmcd conversation average some hundreds of bytes
	// A Scanner rather than pduwire.All: a range over a function links
	// the runtime's checks of its state (module size).
	sp := pduwire.NewScanner(in, pduwire.Options{MaxPDULen: limit})
	var err error
	var lab pduwire.LabelPDU // reused by the LABEL PDUs
	for sp.Next() {
		if o.b, err = appendPDU(o.b, "", sp.PDU(), &lab); err != nil {
			break
		}
		o.n++
	}
	if err == nil {
		err = sp.Err() // a framing error, after the PDUs before it
	}
	return o.end(err)
}

// listOut writes in place a result map whose keys are error, then a list
// (PDUStream's: error, pdus; KPIMessages' error, messages, then more
// keys the caller appends): neither the error nor the list's length is
// known until its elements are written, so beginList leaves room for the
// keys with no error and the array header of a guessed length before
// them, and end writes them there, moving the elements once only when
// the guess was wrong (or to open room for an error).
type listOut struct {
	b     []byte
	start int    // where the map starts
	at    int    // where the first element starts
	n     int    // elements written
	hdr   byte   // the map's header
	key   string // the list's key
}

// beginList starts a map with header hdr at the end of dst, its list
// under key for about guess elements.
func beginList(dst []byte, hdr byte, key string, guess int) listOut {
	o := listOut{start: len(dst), hdr: hdr, key: key}
	o.b = schema.AppendArrayHeader(append(append(dst, hdr, 0xa5, 'e', 'r', 'r', 'o', 'r', 0xc0), key...), uint32(guess))
	o.at = len(o.b)
	return o
}

func (o *listOut) end(err error) []byte {
	body := len(o.b) - o.at
	// The head is built apart (on the stack when there is no error:
	// number.go's appends may write past what they keep) and written
	// over the room reserved for it, which holds it when there is no
	// error and the guess was right.
	var room [32]byte
	head := append(room[:0], o.hdr, 0xa5, 'e', 'r', 'r', 'o', 'r', 0xc0)
	if err != nil {
		head, _ = schema.ErrorOf(err).MarshalMsg(append([]byte(nil), head[:len(head)-1]...))
	}
	head = schema.AppendArrayHeader(append(head, o.key...), uint32(o.n))
	b := o.b
	if grow := o.start + len(head) - o.at; grow > 0 {
		b = append(b, head[:grow]...) // room for the longer head
	}
	if o.start+len(head) != o.at {
		copy(b[o.start+len(head):], b[o.at:o.at+body])
	}
	copy(b[o.start:], head)
	return b[:o.start+len(head)+body]
}
