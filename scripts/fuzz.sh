#!/usr/bin/env bash
# Runs every native fuzz target of the module for the given time each
# (default 5s). go test -fuzz takes one target per run, so list them first.
set -euo pipefail
cd "$(dirname "$0")/.."
t=${1:-5s}
fail=0
for pkg in $(go list ./...); do
	for f in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
		echo "== $pkg $f ($t)"
		go test -run '^$' -fuzz "^$f\$" -fuzztime "$t" "$pkg" || fail=1
	done
done
exit $fail
