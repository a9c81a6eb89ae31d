package main

import "io"

// runKPI is implemented by issue 8; until then it reports a usage error.
func runKPI(args []string, stdout io.Writer) error {
	return usagef("the kpi command is not available yet")
}
