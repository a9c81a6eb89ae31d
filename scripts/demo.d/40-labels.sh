#!/usr/bin/env bash
# demo: PCP label sets: canonical JSONB with its index, and a five-level merge
set -euo pipefail
cd "$(dirname "$0")/../.."
echo '$ perfwire labels @labels/testdata/bench/parse-10.json'
"$PERFWIRE" labels @labels/testdata/bench/parse-10.json
echo
echo '$ perfwire labels --keep-order '"'"'{ "b" : "x y", "a" : 1, "m": {"x": [1, 2], "e": {}} }'"'"
"$PERFWIRE" labels --keep-order '{ "b" : "x y", "a" : 1, "m": {"x": [1, 2], "e": {}} }'
echo
echo '$ perfwire labels --merge @labels/testdata/bench/merge-5.jsonl   # context, domain, indom, cluster, item'
"$PERFWIRE" labels --merge @labels/testdata/bench/merge-5.jsonl
echo
echo '$ perfwire labels '"'"'{"a":1,"a":2}'"'"'   # errors name the byte offset, exit 1'
"$PERFWIRE" labels '{"a":1,"a":2}' || echo "(exit $?)"
