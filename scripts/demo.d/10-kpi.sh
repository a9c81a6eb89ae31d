#!/usr/bin/env bash
# demo: dlt-kpi: counts, messages and the final process table of a real capture
set -euo pipefail
cap=dltkpi/testdata/kpi-odd.dlt
echo "\$ perfwire kpi --summary $cap"
"$PERFWIRE" kpi --summary "$cap"
echo "\$ perfwire kpi --json $cap | sed -n 9,13p   # the first NEW group: BEG, three data messages, END"
"$PERFWIRE" kpi --json "$cap" | sed -n 9,13p | cut -c1-200
echo "\$ perfwire kpi $cap | tail -8"
"$PERFWIRE" kpi "$cap" | tail -8
echo "\$ perfwire kpi --summary dltkpi/testdata/kpi-huge-argv0.dlt   # a dataset too long for any message"
"$PERFWIRE" kpi --summary dltkpi/testdata/kpi-huge-argv0.dlt
