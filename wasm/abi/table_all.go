//go:build !kpi && !pcp && !mmv && !dlt && !archive

package abi

// The call table of the all-formats modules (no build tag): every op.
var (
	calls = [numOps]handler{
		OpKPIDecode: kpiCall, OpKPIStep: kpiCall, OpKPITable: kpiCall, OpKPIFeed: kpiCall, OpKPIEnd: kpiCall, OpKPICut: kpiCall,
		OpPDUDecode: pcpCall, OpPDUFeed: pcpCall, OpPDUEnd: pcpCall, OpEventsDecode: pcpCall, OpLabelsCanon: pcpCall, OpLabelsMerge: pcpCall,
		OpMMVRead: mmvCall, OpMMVServe: mmvCall,
		OpDLTDecode:   dltCall,
		OpArchiveNext: archiveNext,
	}
	opens = [numOps]opener{
		OpKPIOpen: kpiOpen, OpKPIStream: kpiOpen,
		OpPDUStream:   pduOpen,
		OpArchiveOpen: archiveOpen,
	}
)
