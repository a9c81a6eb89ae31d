//go:build !kpi && !mmv && !dlt && !archive

package abi

import (
	"github.com/perfwire/perfwire/pduwire"
	"github.com/tinylib/msgp/msgp"
)

// The PCP calls (PDUs, event arrays, label sets), in the all-formats
// modules and the pcp module.
func init() {
	for _, o := range [...]Op{OpPDUDecode, OpPDUFeed, OpPDUEnd, OpEventsDecode, OpLabelsCanon, OpLabelsMerge} {
		calls[o] = pcpCall
	}
	opens[OpPDUStream] = pduOpen
}

func pduOpen(_ Op, _ []byte, limit uint32) any {
	if limit > pduwire.MaxPDULen {
		return nil
	}
	return NewPDUSession(int(limit))
}

func pcpCall(o Op, s any, in []byte, n uint32) msgp.Marshaler {
	switch o {
	case OpPDUDecode:
		if n > pduwire.MaxPDULen {
			return Failure(ErrBadInput)
		}
		return &pduDecodeCall{in, int(n)}
	case OpPDUFeed, OpPDUEnd:
		p, ok := s.(*PDUSession)
		if !ok {
			return Failure(ErrBadMode)
		}
		return &pduFeedCall{p, in, o == OpPDUEnd}
	case OpEventsDecode:
		return &eventsCall{in}
	}
	return &labelsCall{in, o == OpLabelsMerge}
}

// pduDecodeCall is pdu_decode's result, written in place into the
// module's buffer when it is marshalled.
type pduDecodeCall struct {
	in    []byte
	limit int
}

func (c *pduDecodeCall) MarshalMsg(b []byte) ([]byte, error) {
	return AppendPDUs(b, c.in, c.limit), nil
}

// pduFeedCall is pdu_feed's or pdu_end's result, written in place.
type pduFeedCall struct {
	s   *PDUSession
	in  []byte
	end bool
}

func (c *pduFeedCall) MarshalMsg(b []byte) ([]byte, error) {
	if c.end {
		return c.s.AppendEnd(b), nil
	}
	return c.s.AppendFeed(b, c.in), nil
}

// eventsCall is events_decode's result, written in place.
type eventsCall struct{ in []byte }

func (c *eventsCall) MarshalMsg(b []byte) ([]byte, error) { return AppendEvents(b, c.in), nil }

// labelsCall is labels_canon's or labels_merge's result, written in
// place.
type labelsCall struct {
	in    []byte
	merge bool
}

func (c *labelsCall) MarshalMsg(b []byte) ([]byte, error) { return AppendLabels(b, c.in, c.merge), nil }
