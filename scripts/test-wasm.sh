#!/usr/bin/env bash
# Runs the format packages' own tests compiled for GOOS=js GOARCH=wasm in
# Node, through the go_js_wasm_exec that ships with Go (it needs Node on
# PATH: scripts/web-deps.sh installs it). Extra arguments go to `go test`.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v node >/dev/null || bash scripts/web-deps.sh
export PATH="$PATH:$(go env GOROOT)/lib/wasm"
GOOS=js GOARCH=wasm go test -count=1 "$@" ./pcp/... ./pduwire/... ./labels/... ./eventrec/... \
	./mmv/... ./dlt/... ./dltkpi/... ./ltt/... ./archive/... ./internal/wire/... ./internal/rfc3339/...
