#!/usr/bin/env bash
# Stops dlt-kpi and dlt-daemon if dlt-up.sh started them; otherwise does
# nothing. Safe to run twice.
set -euo pipefail
cd "$(dirname "$0")"
. ./lib.sh

# stop NAME: kills the process recorded in $STATE/NAME.pid if it is still
# the program of that name (pids are reused).
stop() {
	local f="$STATE/$1.pid" pid
	[ -f "$f" ] || return 0
	pid=$(cat "$f")
	if [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$1" ]; then
		log "stopping $1 ($pid)"
		kill "$pid" 2>/dev/null || true
		wait_for 10 sh -c "! kill -0 $pid" || kill -9 "$pid" 2>/dev/null || true
	fi
	rm -f "$f"
}
# The dlt-kpi restart loop leads its own session: end the loop and
# dlt-kpi together.
if [ -f "$STATE/dlt-kpi-loop.pid" ]; then
	pid=$(cat "$STATE/dlt-kpi-loop.pid")
	if tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q perfwire-dlt-kpi-loop; then
		log "stopping dlt-kpi and its restart loop ($pid)"
		kill -- -"$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true
		wait_for 10 sh -c "! pgrep -x dlt-kpi" || pkill -9 -s "$pid" 2>/dev/null || true
	fi
	rm -f "$STATE/dlt-kpi-loop.pid"
fi
stop dlt-daemon
