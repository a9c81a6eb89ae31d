//go:build !kpi && !pcp && !dlt

package abi

import "github.com/tinylib/msgp/msgp"

// The MMV call, in the all-formats modules and the mmv module.
func init() {
	calls[OpMMVRead] = func(in []byte, flags uint32) msgp.Marshaler {
		if flags > 1 {
			return Failure(ErrBadInput)
		}
		r := ReadMMV(in, flags&1 != 0)
		return &r
	}
}
