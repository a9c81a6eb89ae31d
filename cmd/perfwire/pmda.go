package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/perfwire/perfwire/pmda/simple"
)

// pmdaAgent is a PMDA perfwire runs ("perfwire pmda NAME", as pmcd starts
// it) and installs ("perfwire pmda install NAME"); each lives in
// pmda_NAME.go. pmns returns the agent's namespace in pmns(5) form for a
// domain.
type pmdaAgent struct {
	name    string
	summary string
	domain  int
	pmns    func(domain int) ([]byte, error)
	run     func(args []string, stdout io.Writer) error
}

// pmdaAgents lists the PMDAs perfwire carries.
var pmdaAgents = []pmdaAgent{
	{"simple", "PCP's simple PMDA, written on package pmda", simple.Domain, simplePMNS, runPMDASimple},
	{"dltkpi", "dlt-kpi's figures from a dlt-daemon", dltkpiDomain, dltkpiPMNS, runPMDADltkpi},
}

const pmdaUsage = `usage: perfwire pmda NAME [PMDA flags]          run a PMDA, as pmcd starts it
       perfwire pmda install [flags] NAME         add it to pmcd.conf and the PMNS
       perfwire pmda remove [flags] NAME          take it out again

PMDAs:
`

// runPMDA implements "perfwire pmda".
func runPMDA(args []string, stdout io.Writer) error {
	var list strings.Builder
	for _, a := range pmdaAgents {
		fmt.Fprintf(&list, "  %-8s %s (domain %d)\n", a.name, a.summary, a.domain)
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		return usagef("%s%s", pmdaUsage, list.String())
	}
	switch args[0] {
	case "install":
		return runPMDAInstall(args[1:], stdout)
	case "remove":
		return runPMDARemove(args[1:], stdout)
	}
	if a := findPMDA(args[0]); a != nil {
		return a.run(args[1:], stdout)
	}
	return usagef("perfwire pmda: no PMDA %q\n%s%s", args[0], pmdaUsage, list.String())
}

func findPMDA(name string) *pmdaAgent {
	for i := range pmdaAgents {
		if pmdaAgents[i].name == name {
			return &pmdaAgents[i]
		}
	}
	return nil
}
