//go:build !kpi && !mmv && !dlt && !archive

package abi

import (
	"github.com/perfwire/perfwire/pduwire"
	"github.com/tinylib/msgp/msgp"
)

// The PCP calls (PDUs, event arrays, label sets), in the all-formats
// modules and the pcp module.
func init() {
	calls[OpPDUDecode] = func(in []byte, limit uint32) msgp.Marshaler {
		if limit > pduwire.MaxPDULen {
			return Failure(ErrBadInput)
		}
		return &pduDecodeCall{in, int(limit)}
	}
	opens[OpPDUStream] = func(_ []byte, limit uint32) (any, error) {
		if limit > pduwire.MaxPDULen {
			return nil, abiError(ErrBadInput)
		}
		return NewPDUSession(int(limit)), nil
	}
	onSes[OpPDUFeed] = func(s any, in []byte, _ uint32) msgp.Marshaler {
		p, ok := s.(*PDUSession)
		if !ok {
			return Failure(ErrBadMode)
		}
		return &pduFeedCall{p, in, false}
	}
	onSes[OpPDUEnd] = func(s any, _ []byte, _ uint32) msgp.Marshaler {
		p, ok := s.(*PDUSession)
		if !ok {
			return Failure(ErrBadMode)
		}
		return &pduFeedCall{p, nil, true}
	}
	calls[OpEventsDecode] = func(in []byte, _ uint32) msgp.Marshaler {
		return &eventsCall{in}
	}
	calls[OpLabelsCanon] = func(in []byte, _ uint32) msgp.Marshaler {
		r := CanonLabels(in)
		return &r
	}
	calls[OpLabelsMerge] = func(in []byte, _ uint32) msgp.Marshaler {
		r := MergeLabels(in)
		return &r
	}
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
