package tracedir_test

import (
	"fmt"
	"os"

	"github.com/perfwire/perfwire/ltt/tracedir"
)

// Open the sample trace and print each CPU's block span.
func ExampleOpen() {
	tr, err := tracedir.Open(os.DirFS("../testdata/smp_example"), tracedir.Options{MicroTime: true})
	if err != nil {
		panic(err)
	}
	defer tr.Close()
	for _, f := range tr.CPUs {
		blk, err := f.Block(0)
		if err != nil {
			panic(err)
		}
		fmt.Println(f.Name, blk.Version, (blk.EndTime()-blk.StartTime())/1e6, "ms")
	}
	// Output:
	// cpu/0 v1 19996 ms
	// cpu/1 v1 19996 ms
}
