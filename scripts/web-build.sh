#!/usr/bin/env bash
# Builds the static web viewer into wasm/web/dist: the page, the worker,
# perfwire's GOOS=js module (KPI calls only), Go's wasm_exec.js and the MessagePack decoder
# from npm (installed by scripts/web-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
dist=wasm/web/dist
msgpack=wasm/web/node_modules/@msgpack/msgpack/dist.umd/msgpack.min.js
[ -f "$msgpack" ] || { echo "web-build: $msgpack missing; run scripts/web-deps.sh" >&2; exit 1; }
rm -rf "$dist"
mkdir -p "$dist"
cp wasm/web/src/* "$dist"/
cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" "$msgpack" "$dist"/
# The viewer needs only the KPI calls: the kpionly module is ~0.5 MB smaller.
GOOS=js GOARCH=wasm go build -tags kpionly -trimpath -ldflags='-s -w' -o "$dist/perfwire.wasm" ./wasm/js
echo "web viewer built in $dist ($(wc -c <"$dist/perfwire.wasm") bytes of wasm)"
