#!/usr/bin/env bash
# Installs what the cgo code of the bench and fuzz/diff modules compiles
# and links against: libpcp's headers, libpcp_mmv, libpcp_pmda (the pmda figure's C PMDA) and gcc. govulncheck
# loads those modules with cgo, so on a fresh machine `make vuln` needs
# them before any stack script has run.
set -euo pipefail
cd "$(dirname "$0")"
. ./lib.sh
apt_install libpcp3-dev libpcp-mmv1 libpcp-pmda3-dev gcc
