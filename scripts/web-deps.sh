#!/usr/bin/env bash
# Installs what the web viewer's build and browser test need: Debian's
# Chromium (the test drives it with playwright-core; no browser download)
# and the npm packages of viewer/, exactly as its lockfile pins them.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
# Chromium always Debian's; Node.js and npm only where the machine has
# none of its own (a fresh Debian 12 with Go has neither).
need_commands chromium:chromium node:nodejs npm:npm
npm_ci viewer PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
