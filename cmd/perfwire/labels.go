package main

import "io"

// runLabels is implemented by issue 5; until then it reports a usage error.
func runLabels(args []string, stdout io.Writer) error {
	return usagef("the labels command is not available yet")
}
