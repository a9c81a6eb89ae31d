#!/usr/bin/env bash
# Installs PCP 6.0.3 from Debian's packages on a machine without systemd,
# starts pmcd on 127.0.0.1:44321 with the sample, simple, trivial and mmv
# PMDAs, and waits until they answer. Safe to run twice: what already runs
# is left alone and not recorded as ours.
set -euo pipefail
cd "$(dirname "$0")"
. ./lib.sh

# pcp brings pmcd, pminfo, pmerr, mmvdump and python3-pcp; procps brings
# pgrep, which this script and the PMDA Install scripts use. The Install
# scripts compile simple and trivial, which needs the headers, make and gcc.
# pcp-testsuite and libpcp-mmv1-dev: PCP's QA sources (src/badmmv.c), which tests build.
apt_install pcp libpcp3-dev libpcp-pmda3-dev libpcp-mmv1-dev pcp-testsuite make gcc procps pcp-export-pcp2json
v=$(dpkg-query -W -f='${Version}' pcp)
case "$v" in 6.0.3*) ;; *) log "WARNING: pcp $v, the oracles were recorded with 6.0.3" ;; esac

# Listen on loopback only: these are test stacks.
opts=/etc/pcp/pmcd/pmcd.options
grep -q '^-i 127.0.0.1' "$opts" || echo '-i 127.0.0.1' >>"$opts"

if ! pgrep -x pmcd >/dev/null; then
	log "starting pmcd"
	/etc/init.d/pmcd start >&2 || die "pmcd did not start (see /var/log/pcp/pmcd/pmcd.log)"
	touch "$STATE/pmcd"
fi
wait_for 60 pminfo -h 127.0.0.1 pmcd.version ||
	die "pmcd does not answer on 127.0.0.1:44321; log: $(tail -5 /var/log/pcp/pmcd/pmcd.log 2>/dev/null)"

# The Install scripts notify pmcd by process name and answer their own
# questions from defaults when stdin is not a terminal.
for pmda in sample simple trivial; do
	if ! pminfo -h 127.0.0.1 "$pmda" >/dev/null 2>&1; then
		log "installing the $pmda PMDA"
		(cd "/var/lib/pcp/pmdas/$pmda" && ./Install </dev/null >&2) || die "$pmda PMDA Install failed"
	fi
done
# mmv is a DSO PMDA configured by the package itself.
for m in sample.long.one simple.color trivial.time mmv.control.files; do
	wait_for 30 pminfo -h 127.0.0.1 -f "$m" || die "metric $m does not answer"
done
log "pmcd ready on 127.0.0.1:44321 (sample, simple, trivial, mmv)"
