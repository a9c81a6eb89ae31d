#!/usr/bin/env bash
# Installs DuckDB for the export tests and `make demo`: the npm package
# @duckdb/node-api (its native binding comes as the npm package
# @duckdb/node-bindings-linux-x64) into export/oracle, exactly as its
# lockfile pins it. Node.js and npm come from Debian, as scripts/web-deps.sh
# installs them; run after it.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

pkgs=()
command -v node >/dev/null 2>&1 || pkgs+=(nodejs)
command -v npm >/dev/null 2>&1 || pkgs+=(npm)
if [ ${#pkgs[@]} -gt 0 ]; then
	[ "$(id -u)" -eq 0 ] || { echo "duckdb-deps: need root to install ${pkgs[*]}" >&2; exit 1; }
	if ! apt-cache policy "${pkgs[0]}" 2>/dev/null | grep -q 'Candidate: [0-9]'; then
		apt-get update -q >&2
	fi
	apt-get install -y -q -o DPkg::Lock::Timeout=600 "${pkgs[@]}" >&2
fi

# npm ci only when the installed tree is missing or older than the lockfile.
if [ ! -f export/oracle/node_modules/.package-lock.json ] ||
	[ export/oracle/package-lock.json -nt export/oracle/node_modules/.package-lock.json ]; then
	(cd export/oracle && npm ci --no-audit --no-fund >&2)
fi
