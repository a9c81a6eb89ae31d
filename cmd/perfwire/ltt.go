package main

import "io"

// runLTT is implemented by issue 12; until then it reports a usage error.
func runLTT(args []string, stdout io.Writer) error {
	return usagef("the ltt command is not available yet")
}
