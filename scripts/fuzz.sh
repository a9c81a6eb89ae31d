#!/usr/bin/env bash
# Runs every native fuzz target of the module for the given time each.
#   scripts/fuzz.sh [fuzztime] [package pattern]      (defaults: 5s, ./...)
# go test -fuzz takes one target per run, so each package's instrumented
# test binary is built once and then run once per target from the
# package's folder (where its testdata/fuzz seeds live). New-coverage
# inputs are minimised for at most FUZZMINIMIZETIME (default 1s): the
# default 60s would eat a short run. Crashers land in the package's
# testdata/fuzz/<Target>/, ready to commit as regression seeds.
set -euo pipefail
cd "$(dirname "$0")/.."
t=${1:-5s}
pattern=${2:-./...}
mt=${FUZZMINIMIZETIME:-1s}
cache=$(go env GOCACHE)/fuzz
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
fail=0
ran=0
start=$(date +%s)
for pkg in $(go list "$pattern"); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	# Build only packages that have fuzz targets (most of the time is builds).
	grep -qs '^func Fuzz' "$dir"/*_test.go || continue
	exe="$bin/$(echo "$pkg" | tr / _).test"
	go test -c -fuzz=. -o "$exe" "$pkg"
	[ -x "$exe" ] || continue
	for f in $(cd "$dir" && "$exe" -test.list '^Fuzz' | grep '^Fuzz' || true); do
		echo "== $pkg $f ($t)"
		if (cd "$dir" && "$exe" -test.run='^$' -test.fuzz="^$f\$" -test.fuzztime="$t" \
			-test.fuzzminimizetime="$mt" -test.fuzzcachedir="$cache/$pkg") >"$bin/out" 2>&1; then
			grep 'execs:' "$bin/out" | tail -n 1 || true
		elif grep -q 'context deadline exceeded' "$bin/out" && ! grep -q 'Failing input written' "$bin/out"; then
			# The engine itself ran out of time (a short -fuzztime
			# spent on baseline coverage or minimisation): no input
			# failed, so this is not a finding.
			echo "(engine timeout, no failing input)"
		else
			cat "$bin/out"
			fail=1
		fi
		ran=$((ran + 1))
	done
done
echo "fuzz.sh: $ran targets, $(($(date +%s) - start))s, $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
