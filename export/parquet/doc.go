// Package parquet turns what perfwire reads into Parquet tables in long
// format, one row per value, for engines that read Parquet (DuckDB,
// Spark, Trino, ClickHouse). Tables and their column types are described
// in docs/export.md:
//
//   - pcp_values: one row per recorded value of a PCP archive, with its
//     metric, instance, semantics, units and merged labels; counters as
//     recorded and, with [Options.Rates], their rate as pmval computes it.
//   - pcp_events: one row per parameter of each event record.
//   - pcp_metrics: one row per metric descriptor, with its help texts.
//   - pcp_instances: one row per instance of every instance domain record,
//     so the domain's changes over time are rows.
//   - dlt_messages: one row per DLT message, with its payload text as
//     perfwire dlt (and dlt-convert -a) prints it.
//   - kpi_processes and kpi_irqs: dlt-kpi's process and interrupt tables.
//
// Writing streams: rows are buffered into row groups of at most
// [Options.RowGroupSize] bytes (as estimated from the rows' contents) and
// each group is encoded, compressed (zstd) and written out before the
// next is filled, so memory is bounded by the row group size whatever the
// length of the input. Names, instances, labels and units are
// dictionary-encoded: they repeat on every row.
//
// [Dir] lays the tables out as Hive partitions,
// TABLE/host=H/date=YYYY-MM-DD/part-ID.parquet, and makes every file
// appear whole: it is written under a temporary name and renamed into
// place when the input it comes from is done, so a reader never sees a
// half-written file, and a failed export (a full disk) leaves the files
// of the previous export in place.
//
// This package is not a core format package: it uses os, fmt and
// reflection (through parquet-go) and is never built into a wasm plugin.
package parquet
