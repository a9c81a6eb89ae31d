#!/usr/bin/env bash
# Runs the side-by-side benchmarks: makes sure the peers are installed
# (libpcp with headers, libpcp_mmv, python3-pcp, dlt-convert, gcc), starts
# pmcd for the live fetch loop and stops it afterwards if it was not
# already running. Arguments go to the harness (go run . -h lists them):
#   bash bench/run.sh -out RESULTS.md    # full run (make bench)
#   bash bench/run.sh -out RESULTS.md -group cpu   # one group's sections (make bench GROUP=cpu)
#   bash bench/run.sh -quick             # the module's tests, then everything once, briefly (make bench-quick)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/lib.sh

apt_install libpcp3-dev libpcp-mmv1 python3-pcp dlt-tools gcc
# DuckDB reads the export figure's fleet.
bash scripts/web-deps.sh
bash scripts/duckdb-deps.sh
# Stop pmcd afterwards only if this run started it: pcp-down.sh stops any
# pmcd that some pcp-up.sh started, and others on this machine may rely on
# a pmcd that was already running.
running=no
pgrep -x pmcd >/dev/null && running=yes
bin=$(mktemp -d)
cleanup() {
	rm -rf "$bin"
	if [ "$running" = no ]; then bash "$root/scripts/pcp-down.sh" || true; fi
}
trap cleanup EXIT
bash scripts/pcp-up.sh

cd bench
# The root module's go test ./... does not reach this module: its tests
# (both sides read the same values, RESULTS.md's sections and tables)
# run here, with the conformance ones against the pmcd started above.
if [ "${1:-}" = -quick ]; then
	${GO:-go} test -count=1 -tags conformance .
fi
${GO:-go} build -o "$bin/perfwire-bench" .
"$bin/perfwire-bench" "$@"
