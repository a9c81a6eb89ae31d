package main

import "io"

// runPDU is implemented by issue 3; until then it reports a usage error.
func runPDU(args []string, stdout io.Writer) error {
	return usagef("the pdu command is not available yet")
}
