#!/usr/bin/env bash
# Starts the real PCP and DLT stacks, runs every test (conformance tests
# included, they are built with the `conformance` tag), the quick
# side-by-side benchmark check and a short run of every fuzz target, then
# stops what this run started,
# whatever the outcome. Extra arguments go to `go test`.
set -euo pipefail
cd "$(dirname "$0")/.."

# Stop only what this run starts: a pmcd or dlt-daemon that already runs
# may serve someone else on this machine.
pcp_was_up=no dlt_was_up=no
pgrep -x pmcd >/dev/null && pcp_was_up=yes
pgrep -x dlt-daemon >/dev/null && dlt_was_up=yes
cleanup() {
	[ "$dlt_was_up" = yes ] || bash scripts/dlt-down.sh || true
	[ "$pcp_was_up" = yes ] || bash scripts/pcp-down.sh || true
}
trap cleanup EXIT

bash scripts/pcp-up.sh
bash scripts/dlt-up.sh
# Chromium, Node.js and the viewer's npm packages for the wasm tests.
bash scripts/web-deps.sh
bash scripts/duckdb-deps.sh

# -json feeds internal/testsum, which prints the usual output and ends
# with "N passed, N failed, N skipped" for the whole module.
go build -o "${TMPDIR:-/tmp}/perfwire-testsum" ./internal/testsum
# go test's default limit of 10 minutes per test binary is near what
# cmd/perfwire's conformance tests take on a loaded 2-core machine; CI's
# own limit is 90 minutes for everything.
go test -count=1 -timeout 30m -tags conformance -json "$@" ./... | "${TMPDIR:-/tmp}/perfwire-testsum"
# The race detector over the packages whose code runs goroutines (a
# shared pmapi.Client, mmv's writers, dltkpi's tracker), which must be race-free.
go test -count=1 -timeout 30m -race "$@" ./pmapi/... ./mmv/... ./dltkpi/...
# The format packages' tests compiled to WebAssembly and run in Node:
# the code only wasm builds take (mmv's byte-order reads) and the same
# answers in the engine the viewer runs them in.
bash scripts/test-wasm.sh "$@"

# With no test filter given: every peer comparison once, briefly (they must
# still build and agree), then every fuzz target for a few seconds.
if [ $# -eq 0 ]; then
	bash bench/run.sh -quick
	bash scripts/fuzz.sh "${FUZZTIME:-2s}"
fi
