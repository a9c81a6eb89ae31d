//go:build !kpi && !pcp && !dlt && !archive

package abi

import "github.com/tinylib/msgp/msgp"

// The MMV calls, in the all-formats modules and the mmv module.
func init() {
	calls[OpMMVRead] = func(in []byte, flags uint32) msgp.Marshaler {
		if flags > 1 {
			return Failure(ErrBadInput)
		}
		r := ReadMMV(in, flags&1 != 0)
		return &r
	}
	calls[OpMMVServe] = func(in []byte, _ uint32) msgp.Marshaler {
		req, err := readMMVServeInput(in)
		if err != nil {
			return Failure(ErrBadInput)
		}
		r := ServeMMVImages(&req)
		return &r
	}
}
