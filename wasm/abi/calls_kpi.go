//go:build !pcp && !mmv && !dlt && !archive

package abi

import "github.com/perfwire/perfwire/schema"
import "github.com/perfwire/perfwire/dlt"

// The KPI calls, in the all-formats modules and the kpi module
// (module.go's tables).

func kpiOpen(o Op, in []byte, n uint32) any {
	stream := o == OpKPIStream // n is its framing; kpi_open's input is in
	if stream && n > uint32(dlt.FramingBare) {
		return nil
	}
	return newKPISession(in, stream, dlt.Framing(n))
}

func kpiCall(o Op, s any, in []byte, n uint32, b []byte) []byte {
	if o == OpKPIDecode {
		// n is max in its low 24 bits and the framing above them, as
		// kpi_stream takes it (0 storage headers: the .dlt files).
		framing := n >> KPIFramingShift
		if framing > uint32(dlt.FramingBare) {
			return schema.AppendFailure(b, schema.ErrBadInput)
		}
		return AppendKPIMessages(b, in, int(n&(1<<KPIFramingShift-1)), dlt.Framing(framing))
	}
	k, ok := s.(*KPISession)
	if !ok {
		return schema.AppendFailure(b, schema.ErrBadMode)
	}
	// The call run and its result written in place: no KPIStep nor
	// KPITable values, whose marshalers and builders were 12 KB of the
	// modules.
	if o == OpKPITable {
		return k.appendTable(b)
	}
	b = k.appendProgress(b, k.run(o, in, int(n)))
	k.next(o)
	return b
}
