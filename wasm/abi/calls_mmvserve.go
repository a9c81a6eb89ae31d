//go:build mmv

package abi

import "github.com/tinylib/msgp/msgp"

// mmv_serve, in the mmv module only: serving files as pmdammv does costs
// about 110 KB raw, 28 KB gzip -9, more than the all-formats modules'
// budget leaves (there it answers not_built).
func init() {
	calls[OpMMVServe] = func(in []byte, _ uint32) msgp.Marshaler {
		req, err := readMMVServeInput(in)
		if err != nil {
			return Failure(ErrBadInput)
		}
		r := ServeMMVImages(&req)
		return &r
	}
}
