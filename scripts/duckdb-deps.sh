#!/usr/bin/env bash
# Installs DuckDB for the export tests and `make demo`: the npm package
# @duckdb/node-api (its native binding comes as the npm package
# @duckdb/node-bindings-linux-x64) into export/oracle, exactly as its
# lockfile pins it. Node.js and npm come from Debian, as scripts/web-deps.sh
# installs them; run after it.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
need_commands node:nodejs npm:npm
npm_ci export/oracle
