#!/usr/bin/env bash
# demo: export: the bundled archives and DLT captures as Parquet, queried with DuckDB
set -euo pipefail
bash scripts/duckdb-deps.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "\$ perfwire export -o OUT archive/testdata/m2 archive/testdata/m3 dltkpi/testdata/*.dlt"
"$PERFWIRE" export -o "$out" archive/testdata/m2 archive/testdata/m3 dltkpi/testdata/*.dlt
echo "\$ find OUT -name '*.parquet' | sort | head -4"
(cd "$out" && find . -name '*.parquet' | sort | head -4)
q="SELECT archive, metric, count(*) AS n, round(avg(value_double), 3) AS avg FROM read_parquet('$out/pcp_values/**/*.parquet', hive_partitioning=true) WHERE metric = 'kernel.all.load' GROUP BY ALL ORDER BY archive"
echo "\$ duckdb: ${q//$out/OUT}"
node export/oracle/query.mjs "$q"
q="SELECT command, count(*) AS intervals, max(cpu_permille) AS max_cpu_permille FROM read_parquet('$out/kpi_processes/**/*.parquet') WHERE kind = 'ACT' GROUP BY ALL ORDER BY max_cpu_permille DESC LIMIT 3"
echo "\$ duckdb: ${q//$out/OUT}"
node export/oracle/query.mjs "$q"
