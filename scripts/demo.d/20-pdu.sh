#!/usr/bin/env bash
# demo: PCP PDUs — pmcd's side of `pminfo -d -l -f sample.colour`, decoded to JSON lines
set -euo pipefail
cd "$(dirname "$0")/../.."
"$PERFWIRE" pdu pduwire/testdata/captures/conv04.server.bin
