//go:build !kpi && !pcp && !dlt && !archive

package abi

import "github.com/tinylib/msgp/msgp"

// The MMV calls, in the all-formats modules and the mmv module.
func init() {
	calls[OpMMVRead], calls[OpMMVServe] = mmvCall, mmvCall
}

func mmvCall(o Op, _ any, in []byte, flags uint32) msgp.Marshaler {
	if o == OpMMVRead {
		if flags > 1 {
			return Failure(ErrBadInput)
		}
		return &mmvReadCall{in, flags&1 != 0}
	}
	req, err := readMMVServeInput(in)
	if err != nil {
		return Failure(ErrBadInput)
	}
	r := ServeMMVImages(&req)
	return &r
}

// mmvReadCall is mmv_read's result, written in place into the module's
// buffer when it is marshalled.
type mmvReadCall struct {
	in  []byte
	big bool
}

func (c *mmvReadCall) MarshalMsg(b []byte) ([]byte, error) { return AppendMMV(b, c.in, c.big), nil }
