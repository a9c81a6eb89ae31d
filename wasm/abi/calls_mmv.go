//go:build !kpi && !pcp && !dlt && !archive

package abi

import "github.com/tinylib/msgp/msgp"

// The MMV calls, in the all-formats modules and the mmv module.
func init() {
	calls[OpMMVRead], calls[OpMMVServe] = mmvCall, mmvCall
}

func mmvCall(o Op, _ any, in []byte, flags uint32) msgp.Marshaler {
	if o == OpMMVRead && flags > 1 {
		return Failure(ErrBadInput)
	}
	return &mmvResult{o, in, flags&1 != 0}
}

// mmvResult is mmv_read's or mmv_serve's result, written in place into
// the module's buffer when it is marshalled: one type for both calls,
// holding no MMVServeInput (whose marshaler it would link).
type mmvResult struct {
	op  Op
	in  []byte
	big bool
}

func (c *mmvResult) MarshalMsg(b []byte) ([]byte, error) {
	if c.op == OpMMVRead {
		return AppendMMV(b, c.in, c.big), nil
	}
	req, err := readMMVServeInput(c.in)
	if err != nil {
		return Failure(ErrBadInput).MarshalMsg(b)
	}
	return AppendMMVServe(b, &req), nil
}
