#!/usr/bin/env bash
# Installs COVESA DLT 2.18.8 from Debian's packages and starts dlt-daemon
# (TCP 3490 on loopback) and dlt-kpi, then waits for the first KPI message.
# Safe to run twice: what already runs is left alone and not recorded.
set -euo pipefail
cd "$(dirname "$0")"
. ./lib.sh

apt_install dlt-daemon dlt-tools procps iproute2
v=$(dpkg-query -W -f='${Version}' dlt-daemon)
case "$v" in 2.18.8*) ;; *) log "WARNING: dlt-daemon $v, the oracles were recorded with 2.18.8" ;; esac

# The Debian daemon opens one IPv6 socket for TCP 3490 and reaches IPv4
# through it, so without IPv6 it cannot listen at all: say so plainly.
if [ "$(cat /proc/sys/net/ipv6/conf/all/disable_ipv6 2>/dev/null || echo 1)" != 0 ]; then
	die "IPv6 is disabled here; the Debian dlt-daemon listens on IPv6 only"
fi

# start_bg NAME: starts program NAME detached, in its own session so that
# the caller's terminal or job control cannot take it down, and records its
# pid (setsid may fork, so the pid is looked up by name afterwards).
start_bg() {
	(cd /tmp && setsid "$1" </dev/null >"$STATE/$1.log" 2>&1 &)
	wait_for 10 pgrep -x "$1" || die "$1 did not start: $(tail -5 "$STATE/$1.log")"
	pgrep -n -x "$1" >"$STATE/$1.pid"
}

listening() { ss -ltn 'sport = :3490' | grep -q LISTEN; }

if ! pgrep -x dlt-daemon >/dev/null; then
	log "starting dlt-daemon"
	start_bg dlt-daemon
fi
wait_for 20 listening || die "dlt-daemon does not listen on 3490: $(tail -5 "$STATE/dlt-daemon.log" 2>/dev/null)"

# dlt-kpi 2.18.8 tokenises with strtok from three threads (dlt-kpi.md
# §5.3); now and then that corrupts its heap and it aborts ("corrupted
# double-linked list" was seen here after ~40 minutes). A test run needs it
# alive, so it runs under a restart loop that logs every exit.
#
# Its message buffer is raised from libdlt's 1390 bytes: a process whose
# command line does not fit makes dlt-kpi re-send that NEW dataset for
# ever and never log STP or ACT again (dlt-kpi.md §5.2), and this
# machine's own tooling runs with 1.4 KB command lines. 8 KiB fits real
# command lines while no kind comes near the 255 datasets per message at
# which the 8-bit argument count would wrap.
buf=${PERFWIRE_DLT_MSG_BUF_LEN:-8192}
if ! pgrep -f perfwire-dlt-kpi-loop >/dev/null; then
	if pgrep -x dlt-kpi >/dev/null; then
		log "dlt-kpi already runs outside our loop; leaving it alone"
	else
		log "starting dlt-kpi (restarted if it dies)"
		(cd /tmp && DLT_LOG_MSG_BUF_LEN=$buf setsid bash -c 'while :; do dlt-kpi; echo "dlt-kpi exited with status $? at $(date -u +%T)"; sleep 1; done' \
			perfwire-dlt-kpi-loop </dev/null >"$STATE/dlt-kpi.log" 2>&1 &)
		wait_for 10 pgrep -f perfwire-dlt-kpi-loop || die "the dlt-kpi loop did not start"
		pgrep -o -f perfwire-dlt-kpi-loop >"$STATE/dlt-kpi-loop.pid"
	fi
fi

# dlt-kpi logs under the application id PROC; one such line proves the
# chain. dlt-receive never exits by itself, so it runs for a bounded time.
kpi_seen() {
	timeout 3 dlt-receive -a localhost >"$STATE/dlt-probe.txt" 2>/dev/null || true
	grep -q ' PROC PROC ' "$STATE/dlt-probe.txt"
}
wait_for 10 kpi_seen || die "no KPI message from dlt-kpi through dlt-daemon"
log "dlt-daemon and dlt-kpi ready on localhost:3490"
