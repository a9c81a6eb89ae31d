//go:build mmv

package abi

// The call table of the mmv module: mmv_read, mmv_serve.
var (
	calls = [numOps]handler{
		OpMMVRead: mmvCall, OpMMVServe: mmvCall,
	}
	opens = [numOps]opener{}
)
