# Shared helpers of the stack scripts (sourced, not run).
# STATE records what our scripts started, so the down scripts stop only that.
STATE=${PERFWIRE_STATE:-/tmp/perfwire-stacks}
mkdir -p "$STATE"
export DEBIAN_FRONTEND=noninteractive

log() { echo "[$(basename "$0")] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# installed PKG: true when Debian package PKG is fully installed.
installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q '^install ok installed$'
}

# apt_install PKG...: installs the missing packages. Debian's postinst
# scripts call systemctl, which fails on a machine booted without systemd
# and leaves the package half-configured; a no-op systemctl first on PATH
# lets them finish. Services are started by our scripts, not by dpkg.
apt_install() {
	local missing=() p
	for p in "$@"; do installed "$p" || missing+=("$p"); done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] || die "need root to install: ${missing[*]}"
	local shim
	shim=$(mktemp -d)
	printf '#!/bin/sh\nexit 0\n' >"$shim/systemctl"
	chmod +x "$shim/systemctl"
	log "installing ${missing[*]}"
	if ! apt-cache policy "${missing[0]}" 2>/dev/null | grep -q 'Candidate: [0-9]'; then
		apt-get update -q >&2 || die "apt-get update failed"
	fi
	PATH="$shim:$PATH" apt-get install -y -q -o DPkg::Lock::Timeout=600 "${missing[@]}" >&2 ||
		PATH="$shim:$PATH" dpkg --configure -a >&2 ||
		die "could not install ${missing[*]}"
	rm -rf "$shim"
	for p in "${missing[@]}"; do installed "$p" || die "$p is still not installed"; done
}

# need_commands CMD:PKG...: installs Debian's PKG for each CMD missing
# from PATH (a machine's own node or chromium is kept).
need_commands() {
	local pkgs=() c
	for c in "$@"; do command -v "${c%%:*}" >/dev/null 2>&1 || pkgs+=("${c#*:}"); done
	[ ${#pkgs[@]} -eq 0 ] || apt_install "${pkgs[@]}"
}

# npm_ci DIR [VAR=VALUE...]: npm ci in DIR, with the variables set, only
# when its installed tree is missing or older than the lockfile.
npm_ci() {
	local dir=$1
	shift
	if [ ! -f "$dir/node_modules/.package-lock.json" ] ||
		[ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
		(cd "$dir" && env "$@" npm ci --no-audit --no-fund >&2)
	fi
}

# wait_for SECONDS CMD...: retries CMD every half second until it succeeds
# or SECONDS of wall-clock time have passed.
wait_for() {
	local deadline=$((SECONDS + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		[ $SECONDS -lt $deadline ] || return 1
		sleep 0.5
	done
}
