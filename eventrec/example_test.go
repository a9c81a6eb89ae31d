package eventrec_test

import (
	"fmt"
	"os"

	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/pcp"
)

// Decode the sample PMDA's sample.event.records array for instance
// "bogus", captured from pmcd 6.0.3 (conv05).
func ExampleParse() {
	b, err := os.ReadFile("testdata/conv05.pdu0.HIGHRES_RESULT.29.0.136.inst1.EVENT.bin")
	if err != nil {
		panic(err)
	}
	a, err := eventrec.Parse(b, eventrec.Options{})
	if err != nil {
		panic(err)
	}
	for r, err := range a.All() {
		if err != nil {
			panic(err)
		}
		fmt.Printf("%d.%06d flags %s\n", r.Seconds(), r.Fraction(), r.Flags())
		for p := range r.Params() {
			if s, ok := p.Text(); ok {
				fmt.Printf("  %s %q\n", p.ID, s)
			}
		}
	}
	// Output:
	// 1795316274.927506 flags point
	//   29.0.134 "fetch #6"
	// 1795316274.927506 flags point
	//   29.0.134 "bingo!"
}

// Pack records the way a PMDA does, then read them back.
func ExampleBuilder() {
	typeID := pcp.NewID(29, 0, 127)
	b := eventrec.NewBuilder(nil, pcp.TypeHighResEvent)
	b.AddRecord(1700000000, 5, eventrec.FlagStart|eventrec.FlagID)
	b.AddUint32(typeID, 4)
	b.AddString(pcp.NewID(29, 0, 134), "six")
	b.AddMissed(1700000001, 0, 7)
	out, err := b.Finish()
	if err != nil {
		panic(err)
	}
	a, err := eventrec.Parse(out, eventrec.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d bytes, %d records\n", len(out), a.Len())
	for r := range a.Records() {
		if n, ok := r.Missed(); ok {
			fmt.Println("missed", n)
			continue
		}
		fmt.Println(r.Flags(), r.NumParams(), "params")
	}
	// Output:
	// 80 bytes, 2 records
	// start,id 2 params
	// missed 7
}

// Unpack records into value sets as pmUnpackEventRecords does.
func ExampleUnpacker() {
	b := eventrec.NewBuilder(nil, pcp.TypeEvent)
	b.AddRecord(0, 0, eventrec.FlagPoint)
	b.AddFloat64(pcp.NewID(29, 0, 133), 8)
	b.AddMissed(1, 0, 3)
	out, _ := b.Finish()
	a, _ := eventrec.Parse(out, eventrec.Options{})
	var u eventrec.Unpacker
	for i, res := range u.Unpack(a) {
		for _, v := range res.Values {
			fmt.Println(i, v.ID, v.InsituFmt, v.Insitu, len(v.Block))
		}
	}
	// Output:
	// 0 511.0.1 true 1 0
	// 0 29.0.133 false 0 8
	// 1 511.0.1 true 2147483648 0
	// 1 511.0.2 true 3 0
}

func ExampleFlags_String() {
	fmt.Println(eventrec.FlagStart | eventrec.FlagID | eventrec.FlagParent)
	fmt.Println(eventrec.FlagMissed)
	// Output:
	// start,id,parent
	// missed
}

// Check and unpack an array in one pass, straight from its bytes; a bad
// array fails as Parse fails, with the field and its offset.
func ExampleUnpacker_UnpackBytes() {
	b := eventrec.NewBuilder(nil, pcp.TypeEvent)
	b.AddRecord(5, 250, 0)
	b.AddFloat64(pcp.NewID(29, 0, 133), 8)
	out, _ := b.Finish()
	var u eventrec.Unpacker
	res, err := u.UnpackBytes(out, eventrec.Options{})
	fmt.Println(len(res), res[0].Sec, res[0].Nsec, res[0].Values[0].ID, err)
	_, err = u.UnpackBytes(out[:len(out)-4], eventrec.Options{})
	fmt.Println(err)
	// Output:
	// 1 5 250000 29.0.133 <nil>
	// eventrec: ea_len: truncated at offset 0
}
