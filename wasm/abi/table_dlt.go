//go:build dlt

package abi

// The call table of the dlt module: dlt_decode.
var (
	calls = [numOps]handler{
		OpDLTDecode: dltCall,
	}
	opens = [numOps]opener{}
)
