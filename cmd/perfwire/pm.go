package main

import "io"

// runPM is implemented by issue 6; until then it reports a usage error.
func runPM(args []string, stdout io.Writer) error {
	return usagef("the pm command is not available yet")
}
