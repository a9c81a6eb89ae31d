#!/usr/bin/env bash
# demo: MMV files: speed's and our writer's files as pmdammv sees them, and as mmvdump prints them
set -euo pipefail
cd "$(dirname "$0")/../.."
d=mmv/testdata
echo "# JSON view (names, pmIDs and pmInDoms as pmdammv exports them) of a speed file and a v3 file with labels"
"$PERFWIRE" mmv "$d/speed/test2.mmv" "$d/lab/sample3.mmv"
echo
echo "# mmvdump-style text of speed's noprefix+sentinel file"
"$PERFWIRE" mmv --dump "$d/speed/test5.mmv"
