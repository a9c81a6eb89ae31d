#!/usr/bin/env bash
# demo: read the 2004 two-CPU LTT trace smp_example (summary, then the first events of cpu/0)
set -euo pipefail
cd "$(dirname "$0")/../.."
"$PERFWIRE" ltt ltt/testdata/smp_example
"$PERFWIRE" ltt --events -n 8 ltt/testdata/smp_example
