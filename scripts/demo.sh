#!/usr/bin/env bash
# The demo: builds the CLI and runs every demo step in scripts/demo.d on
# the real captures bundled in the packages' testdata folders.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bin
go build -o bin/perfwire ./cmd/perfwire
export PERFWIRE=$PWD/bin/perfwire
shopt -s nullglob
steps=(scripts/demo.d/*.sh)
for s in "${steps[@]}"; do
	echo "### $(sed -n 's/^# demo: //p' "$s" | head -1)"
	bash "$s"
	echo
done
if [ ${#steps[@]} -eq 0 ]; then
	"$PERFWIRE" -h
fi
