package abi

import (
	"github.com/perfwire/perfwire/labels"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/render"
	"github.com/perfwire/perfwire/schema"
)

// The PCP calls (PDUs, event arrays, label sets), in the all-formats
// modules and the pcp module (the table_*.go files).

func pduOpen(_ Op, _ []byte, limit uint32) any {
	if limit > pduwire.MaxPDULen {
		return nil
	}
	return render.NewPDUSession(int(limit))
}

func pcpCall(o Op, s any, in []byte, n uint32, b []byte) []byte {
	switch o {
	case OpPDUDecode:
		if n > pduwire.MaxPDULen {
			return schema.AppendFailure(b, schema.ErrBadInput)
		}
		return render.AppendPDUs(b, in, int(n))
	case OpPDUFeed, OpPDUEnd:
		p, ok := s.(*render.PDUSession)
		if !ok {
			return schema.AppendFailure(b, schema.ErrBadMode)
		}
		if o == OpPDUEnd {
			return p.AppendEnd(b)
		}
		return p.AppendFeed(b, in)
	case OpEventsDecode:
		return render.AppendEvents(b, in)
	}
	// AppendLabels' two steps, here so that the modules link one function
	// for them, not two.
	var ls labels.Set
	return render.AppendLabelSet(b, &ls, render.ReadLabels(&ls, in, o == OpLabelsMerge))
}
