#!/usr/bin/env bash
# Installs what the web viewer's build and browser test need: Debian's
# Chromium (the test drives it with playwright-core; no browser download)
# and the npm packages of viewer/, exactly as its lockfile pins them.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

# Debian's packages: Chromium always; Node.js and npm only where the
# machine has none of its own (a fresh Debian 12 with Go has neither).
pkgs=()
command -v chromium >/dev/null 2>&1 || pkgs+=(chromium)
command -v node >/dev/null 2>&1 || pkgs+=(nodejs)
command -v npm >/dev/null 2>&1 || pkgs+=(npm)
if [ ${#pkgs[@]} -gt 0 ]; then
	[ "$(id -u)" -eq 0 ] || { echo "web-deps: need root to install ${pkgs[*]}" >&2; exit 1; }
	if ! apt-cache policy "${pkgs[0]}" 2>/dev/null | grep -q 'Candidate: [0-9]'; then
		apt-get update -q >&2
	fi
	apt-get install -y -q -o DPkg::Lock::Timeout=600 "${pkgs[@]}" >&2
fi

# npm ci only when the installed tree is missing or older than the lockfile.
if [ ! -f viewer/node_modules/.package-lock.json ] ||
	[ viewer/package-lock.json -nt viewer/node_modules/.package-lock.json ]; then
	(cd viewer && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund >&2)
fi
