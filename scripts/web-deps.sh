#!/usr/bin/env bash
# Installs what the web viewer's build and browser test need: Debian's
# Chromium (the test drives it with playwright-core; no browser download)
# and the npm packages of wasm/web, exactly as its lockfile pins them.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

if ! command -v chromium >/dev/null 2>&1; then
	[ "$(id -u)" -eq 0 ] || { echo "web-deps: need root to install chromium" >&2; exit 1; }
	if ! apt-cache policy chromium 2>/dev/null | grep -q 'Candidate: [0-9]'; then
		apt-get update -q >&2
	fi
	apt-get install -y -q -o DPkg::Lock::Timeout=600 chromium >&2
fi

# npm ci only when the installed tree is missing or older than the lockfile.
if [ ! -f wasm/web/node_modules/.package-lock.json ] ||
	[ wasm/web/package-lock.json -nt wasm/web/node_modules/.package-lock.json ]; then
	(cd wasm/web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund >&2)
fi
