package render_test

import (
	"fmt"
	"os"

	"github.com/perfwire/perfwire/render"
)

// A stream fed piece by piece gives the PDUs as they complete.
func ExamplePDUSession() {
	in, err := os.ReadFile("testdata/conv01.client.bin")
	if err != nil {
		panic(err)
	}
	s := render.NewPDUSession(0)
	n := 0
	for off := 0; off < len(in); off += 10 {
		n += len(s.Feed(in[off:min(off+10, len(in))]).PDUs)
	}
	end := s.End()
	fmt.Println(n, "PDUs, error:", end.Error)
	// Output:
	// 25 PDUs, error: <nil>
}
