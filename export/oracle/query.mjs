// Runs SQL statements in an in-memory DuckDB and prints each result row of
// the last one as a JSON line (BIGINT and other 64-bit values as strings,
// so no digit is lost to JavaScript's doubles). The export tests and
// `make demo` read perfwire's Parquet through it.
//
//   node query.mjs "SELECT ... FROM read_parquet('DIR/pcp_values/**/*.parquet', hive_partitioning=true)"
import { DuckDBInstance } from '@duckdb/node-api';

const sql = process.argv.slice(2).join(' ');
if (!sql) {
	console.error('usage: node query.mjs SQL');
	process.exit(2);
}
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
try {
	const reader = await con.runAndReadAll(sql);
	for (const row of reader.getRowObjectsJson()) {
		process.stdout.write(JSON.stringify(row) + '\n');
	}
} catch (e) {
	console.error(String(e.message || e));
	process.exitCode = 1;
} finally {
	con.closeSync();
}
