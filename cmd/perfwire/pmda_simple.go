package main

import (
	"io"

	"github.com/perfwire/perfwire/pmda/simple"
)

// runPMDASimple implements "perfwire pmda simple": the PMDA talks to pmcd
// over stdin and stdout, so nothing else may be written there.
func runPMDASimple(args []string, _ io.Writer) error {
	return simple.Main(args, diag)
}

// simplePMNS is the simple PMDA's namespace.
func simplePMNS(domain int) ([]byte, error) {
	a, err := simple.New(domain, "", "")
	if err != nil {
		return nil, err
	}
	return a.AppendPMNS(nil), nil
}
