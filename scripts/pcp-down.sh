#!/usr/bin/env bash
# Stops pmcd (and with it its PMDAs) if pcp-up.sh started it; otherwise
# does nothing. Safe to run twice.
set -euo pipefail
cd "$(dirname "$0")"
. ./lib.sh

if [ -f "$STATE/pmcd" ]; then
	log "stopping pmcd"
	/etc/init.d/pmcd stop >&2 || true
	wait_for 20 sh -c '! pgrep -x pmcd' || die "pmcd is still running"
	rm -f "$STATE/pmcd"
fi
