package main

import "io"

// runMMV is implemented by issue 7; until then it reports a usage error.
func runMMV(args []string, stdout io.Writer) error {
	return usagef("the mmv command is not available yet")
}
