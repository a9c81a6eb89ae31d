package eventdefs_test

import (
	"fmt"

	"github.com/perfwire/perfwire/ltt/eventdefs"
)

// Parse a facility in the eventdefs dialect (bare attribute values, C
// comments) and compute the checksum facility_load records carry.
func ExampleParse() {
	src := `<facility name=f>
	  // an event with a struct payload
	  <event name=e><struct><field name=a><uint size=4/></field></struct></event>
	</facility>`
	fs, err := eventdefs.Parse([]byte(src), eventdefs.Options{})
	if err != nil {
		panic(err)
	}
	f := fs[0]
	fmt.Printf("%s: %d event(s), checksum %#08x\n", f.Name, len(f.Events), f.Checksum())
	// Output: f: 1 event(s), checksum 0x26bad50b
}

func ExampleParseSystem() {
	s, err := eventdefs.ParseSystem([]byte(`<system cpu="2" arch_size="LP64" endian="BIG_ENDIAN" ltt_block_size="100000">a test</system>`))
	if err != nil {
		panic(err)
	}
	cfg, err := s.Options()
	if err != nil {
		panic(err)
	}
	fmt.Println(s.CPU, cfg.Arch, cfg.BigEndian, cfg.BlockSize, s.Description)
	// Output: 2 LP64 true 100000 a test
}
