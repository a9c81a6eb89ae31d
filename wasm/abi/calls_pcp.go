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
		r := DecodePDUs(in, int(limit))
		return &r
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
		r := p.Feed(in)
		return &r
	}
	onSes[OpPDUEnd] = func(s any, _ []byte, _ uint32) msgp.Marshaler {
		p, ok := s.(*PDUSession)
		if !ok {
			return Failure(ErrBadMode)
		}
		r := p.End()
		return &r
	}
	calls[OpEventsDecode] = func(in []byte, _ uint32) msgp.Marshaler {
		r := DecodeEvents(in)
		return &r
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
