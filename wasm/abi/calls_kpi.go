//go:build !pcp && !mmv && !dlt && !archive

package abi

import (
	"github.com/perfwire/perfwire/dlt"
	"github.com/tinylib/msgp/msgp"
)

// The KPI calls, in the all-formats modules and the kpi module.
func init() {
	calls[OpKPIDecode] = func(in []byte, n uint32) msgp.Marshaler {
		// n is max in its low 24 bits and the framing above them, as
		// kpi_stream takes it (0 storage headers: the .dlt files).
		framing := n >> KPIFramingShift
		if framing > uint32(dlt.FramingBare) {
			return Failure(ErrBadInput)
		}
		r := DecodeKPIFramed(in, int(n&(1<<KPIFramingShift-1)), dlt.Framing(framing))
		return &r
	}
	opens[OpKPIOpen] = func(in []byte, _ uint32) (any, error) { return NewKPISession(in), nil }
	opens[OpKPIStream] = func(_ []byte, framing uint32) (any, error) {
		if framing > uint32(dlt.FramingBare) {
			return nil, abiError(ErrBadInput)
		}
		return NewKPIStream(dlt.Framing(framing)), nil
	}
	onSes[OpKPIStep] = func(s any, _ []byte, n uint32) msgp.Marshaler {
		k, ok := s.(*KPISession)
		if !ok {
			return Failure(ErrBadMode)
		}
		r := k.Step(int(n))
		return &r
	}
	onSes[OpKPITable] = func(s any, _ []byte, _ uint32) msgp.Marshaler {
		k, ok := s.(*KPISession)
		if !ok {
			return Failure(ErrBadMode)
		}
		r := k.Table()
		return &r
	}
	onSes[OpKPIFeed] = func(s any, in []byte, _ uint32) msgp.Marshaler {
		k, ok := s.(*KPISession)
		if !ok {
			return Failure(ErrBadMode)
		}
		r := k.Feed(in)
		return &r
	}
	onSes[OpKPIEnd] = func(s any, _ []byte, _ uint32) msgp.Marshaler {
		k, ok := s.(*KPISession)
		if !ok {
			return Failure(ErrBadMode)
		}
		r := k.End()
		return &r
	}
	onSes[OpKPICut] = func(s any, _ []byte, _ uint32) msgp.Marshaler {
		k, ok := s.(*KPISession)
		if !ok {
			return Failure(ErrBadMode)
		}
		r := k.Cut()
		return &r
	}
}
