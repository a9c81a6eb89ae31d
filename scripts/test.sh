#!/usr/bin/env bash
# Starts the real PCP and DLT stacks, runs every test (conformance tests
# included, they are built with the `conformance` tag) and stops only what
# it started, whatever the outcome. Extra arguments go to `go test`.
set -euo pipefail
cd "$(dirname "$0")/.."

cleanup() {
	bash scripts/dlt-down.sh || true
	bash scripts/pcp-down.sh || true
}
trap cleanup EXIT

bash scripts/pcp-up.sh
bash scripts/dlt-up.sh
# Chromium, Node.js and the viewer's npm packages for the wasm tests.
bash scripts/web-deps.sh

# -json feeds internal/testsum, which prints the usual output and ends
# with "N passed, N failed, N skipped" for the whole module.
go build -o "${TMPDIR:-/tmp}/perfwire-testsum" ./internal/testsum
go test -count=1 -tags conformance -json "$@" ./... | "${TMPDIR:-/tmp}/perfwire-testsum"
