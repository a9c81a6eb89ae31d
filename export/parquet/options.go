package parquet

// Options configure what an export writes.
type Options struct {
	// RowGroupSize bounds a row group, in bytes of row contents as the
	// writer estimates them before encoding (default
	// DefaultRowGroupSize). Memory held per open file is about one row
	// group, compressed.
	RowGroupSize int64
	// Tables selects the tables written, by name (TablePCPValues, ...);
	// empty means every table the input has.
	Tables []string
	// Partition names the Hive partition keys, in order: "host", "date"
	// or both (the default, DefaultPartition). Empty writes every table's
	// files straight into its directory.
	Partition []string
	// Rates adds to pcp_values, for counters, the rate as pmval computes
	// it: the change since the previous value of the same instance
	// divided by the seconds between them, per second in the counter's
	// units, and for counters of time as utilisation (seconds per
	// second). A counter that went backwards (a wrap or a restart) and
	// the first value after a gap (<mark>) have no rate.
	Rates bool
}

// DefaultRowGroupSize is the default bound of a row group: engines read a
// row group as their unit of parallel work, and 128 MiB is the size Spark
// and Trino are tuned for.
const DefaultRowGroupSize = 128 << 20

// DefaultPartition is the default partitioning, by host then by UTC day.
var DefaultPartition = []string{"host", "date"}

// Table names.
const (
	TablePCPValues    = "pcp_values"
	TablePCPMetrics   = "pcp_metrics"
	TablePCPInstances = "pcp_instances"
	TablePCPEvents    = "pcp_events"
	TableDLTMessages  = "dlt_messages"
	TableKPIProcesses = "kpi_processes"
	TableKPIIRQs      = "kpi_irqs"
	TableMMVValues    = "mmv_values"
)

// Tables lists every table name, in the order docs/export.md describes
// them.
var Tables = []string{TablePCPValues, TablePCPMetrics, TablePCPInstances, TablePCPEvents, TableDLTMessages, TableKPIProcesses, TableKPIIRQs, TableMMVValues}

func (o Options) rowGroupSize() int64 {
	if o.RowGroupSize <= 0 {
		return DefaultRowGroupSize
	}
	return o.RowGroupSize
}

// wants reports whether table t is selected.
func (o Options) wants(t string) bool {
	if len(o.Tables) == 0 {
		return true
	}
	for _, s := range o.Tables {
		if s == t {
			return true
		}
	}
	return false
}
