package abi

import (
	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/render"
	"github.com/perfwire/perfwire/schema"
)

// The KPI calls, in the all-formats modules and the kpi module
// (the table_*.go files).

func kpiOpen(o Op, in []byte, n uint32) any {
	if o == OpKPIOpen {
		return render.NewKPISession(in)
	}
	if n > uint32(dlt.FramingBare) { // n is kpi_stream's framing
		return nil
	}
	return render.NewKPIStream(dlt.Framing(n))
}

// kpiCalls are the session calls by op.
var kpiCalls = [numOps]render.KPICall{
	OpKPIStep: render.KPICallStep, OpKPIFeed: render.KPICallFeed, OpKPICut: render.KPICallCut,
	OpKPIEnd: render.KPICallEnd,
}

func kpiCall(o Op, s any, in []byte, n uint32, b []byte) []byte {
	if o == OpKPIDecode {
		// n is max in its low 24 bits and the framing above them, as
		// kpi_stream takes it (0 storage headers: the .dlt files).
		framing := n >> KPIFramingShift
		if framing > uint32(dlt.FramingBare) {
			return schema.AppendFailure(b, schema.ErrBadInput)
		}
		return render.AppendKPIMessages(b, in, int(n&(1<<KPIFramingShift-1)), dlt.Framing(framing))
	}
	k, ok := s.(*render.KPISession)
	if !ok {
		return schema.AppendFailure(b, schema.ErrBadMode)
	}
	if o == OpKPITable {
		return k.AppendTable(b)
	}
	return k.AppendProgress(b, k.Run(kpiCalls[o], in, int(n)))
}
