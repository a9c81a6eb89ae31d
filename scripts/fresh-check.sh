#!/usr/bin/env bash
# Proves that the stack scripts work on a fresh Debian 12: debootstraps a
# minimal bookworm into DIR (default /var/tmp/perfwire-fresh), downloads the
# packages there, then runs pcp-up, dlt-up (twice each), a live query, and
# the down scripts inside the chroot with its own network and PID
# namespaces, so the host's pmcd and dlt-daemon are neither seen nor
# disturbed. Not part of `make test` (it needs minutes and the network).
set -euo pipefail
cd "$(dirname "$0")"
F=${1:-/var/tmp/perfwire-fresh}
export DEBIAN_FRONTEND=noninteractive
command -v debootstrap >/dev/null || apt-get install -y -q debootstrap
# The mirror is the one this machine's apt already uses.
mirror=$(sed -n 's/^URIs: *\([^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 ~ /\/debian$/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
[ -n "$mirror" ] || { echo "no Debian mirror in the apt configuration" >&2; exit 1; }
[ -x "$F/bin/bash" ] || debootstrap --variant=minbase bookworm "$F" "$mirror"
mountpoint -q "$F/dev" || mount --bind /dev "$F/dev"
trap 'umount "$F/dev" 2>/dev/null || true' EXIT
cp /etc/resolv.conf "$F/etc/resolv.conf"
# The namespace below has no network: fetch the packages first.
chroot "$F" bash -c 'apt-get update -q && apt-get install -y -q --download-only pcp libpcp3-dev libpcp-pmda3-dev make gcc procps dlt-daemon dlt-tools iproute2' >/dev/null
rm -rf "$F/root/scripts" && cp -r . "$F/root/scripts"
unshare -n -p -f --mount-proc="$F/proc" bash -c "ip link set lo up; exec chroot '$F' /bin/bash -c '
	set -e; cd /root/scripts
	bash pcp-up.sh; bash dlt-up.sh; bash pcp-up.sh; bash dlt-up.sh
	pminfo -h 127.0.0.1 -f sample.long.one simple.color trivial.time mmv.control.files
	bash dlt-down.sh; bash pcp-down.sh
	if pgrep -x pmcd || pgrep -x dlt-daemon || pgrep -x dlt-kpi; then echo \"left running\"; exit 1; fi
	echo fresh-check: OK'"
