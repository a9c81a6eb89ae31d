// Command simple runs PCP's simple PMDA written on package pmda (see
// package simple). pmcd starts it from a pmcd.conf line such as
//
//	simple	253	pipe	binary	/path/to/simple -d 253
package main

import (
	"log"
	"os"

	"github.com/perfwire/perfwire/pmda/simple"
)

func main() {
	if err := simple.Main(os.Args[1:], os.Stderr); err != nil {
		log.Fatal(err)
	}
}
