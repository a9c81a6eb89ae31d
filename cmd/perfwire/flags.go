package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// quietFlags returns a flag set that prints nothing: its parse errors
// come back to the command, which words its own usage.
func quietFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseOrUsage parses args into fs. On -h it prints usage to stdout and
// reports done with no error; a bad flag is a usage error with usage.
func parseOrUsage(fs *flag.FlagSet, args []string, usage string, stdout io.Writer) (done bool, err error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, usage)
			return true, nil
		}
		return false, usagef("%v\n%s", err, usage)
	}
	return false, nil
}
