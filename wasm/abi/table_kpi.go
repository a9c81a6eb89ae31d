//go:build kpi

package abi

// The call table of the kpi module: the KPI calls.
var (
	calls = [numOps]handler{
		OpKPIDecode: kpiCall, OpKPIStep: kpiCall, OpKPITable: kpiCall, OpKPIFeed: kpiCall, OpKPIEnd: kpiCall, OpKPICut: kpiCall,
	}
	opens = [numOps]opener{
		OpKPIOpen: kpiOpen, OpKPIStream: kpiOpen,
	}
)
