#!/usr/bin/env bash
# Builds the viewer into viewer/dist: the page and the worker bundled by
# esbuild (uPlot, the MessagePack reader), perfwire's GOOS=js module with
# every format and Go's wasm_exec.js. The npm packages come from
# scripts/web-deps.sh. GO names the go command, as in the Makefile.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
dist=viewer/dist
[ -x viewer/node_modules/.bin/esbuild ] || { echo "web-build: esbuild missing; run scripts/web-deps.sh" >&2; exit 1; }
rm -rf "$dist"
mkdir -p "$dist"
(cd viewer && node build.mjs)
cp viewer/src/index.html "$dist"/
# A real dlt-kpi capture the worker decodes while no file is open, so that
# V8 has compiled the decoder's hot code before the first file (worker.js).
cp viewer/testdata/kpi-odd.dlt "$dist"/warm.dlt
cp "$("$GO" env GOROOT)/lib/wasm/wasm_exec.js" "$dist"/
# The viewer shows dlt-kpi captures, PCP PDU streams, MMV files and PCP
# archives: the all-formats module.
GOOS=js GOARCH=wasm "$GO" build -trimpath -ldflags='-s -w' -o "$dist/perfwire.wasm" ./wasm/js
echo "viewer built in $dist: $(wc -c <"$dist/perfwire.wasm") bytes of wasm, $(cat "$dist"/main.js "$dist"/worker.js "$dist"/main.css | gzip -9 | wc -c) bytes of script and style gzipped"
