//go:build pcp

package abi

// The call table of the pcp module: PDUs, event arrays, label sets.
var (
	calls = [numOps]handler{
		OpPDUDecode: pcpCall, OpPDUFeed: pcpCall, OpPDUEnd: pcpCall, OpEventsDecode: pcpCall, OpLabelsCanon: pcpCall, OpLabelsMerge: pcpCall,
	}
	opens = [numOps]opener{
		OpPDUStream: pduOpen,
	}
)
