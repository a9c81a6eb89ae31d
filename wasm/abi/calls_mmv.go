package abi

import (
	"github.com/perfwire/perfwire/render"
	"github.com/perfwire/perfwire/schema"
)

// The MMV calls, in the all-formats modules and the mmv module
// (the table_*.go files).

func mmvCall(o Op, _ any, in []byte, flags uint32, b []byte) []byte {
	if o == OpMMVRead {
		if flags > 1 {
			return schema.AppendFailure(b, schema.ErrBadInput)
		}
		return render.AppendMMV(b, in, flags&1 != 0)
	}
	req, err := readMMVServeInput(in)
	if err != nil {
		return schema.AppendFailure(b, schema.ErrBadInput)
	}
	return render.AppendMMVServe(b, &req)
}
