// Package conformance holds the tests that prove the real stacks are up:
// a live pmcd on 127.0.0.1:44321 and a live dlt-daemon fed by dlt-kpi.
// They are built with the `conformance` tag and run under `make test`,
// after scripts/pcp-up.sh and scripts/dlt-up.sh.
package conformance
