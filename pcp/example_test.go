package pcp_test

import (
	"errors"
	"fmt"

	"github.com/perfwire/perfwire/pcp"
)

func ExampleUnits_String() {
	// The units word of a DESC PDU: Mbyte per second.
	fmt.Println(pcp.Units(0x1F023000))
	fmt.Println(pcp.NewUnits(0, 0, 1, 0, 0, -6))
	fmt.Printf("%q\n", pcp.Units(0)) // pminfo prints "none"
	// Output:
	// Mbyte / sec
	// count x 10^-6
	// ""
}

func ExampleID_String() {
	id := pcp.NewID(29, 0, 6)
	fmt.Println(id, pcp.NewInDom(29, 2), pcp.TypeU64, pcp.SemCounter)
	// Output: 29.0.6 29.2 U64 counter
}

func ExampleExtract() {
	// A U64 value block payload (big-endian, as pmcd sent it) read as
	// a double, then as a 32-bit integer, which it does not fit.
	payload := []byte{0, 0, 1, 0, 0, 0, 0, 0} // 1099511627776
	a, err := pcp.Extract(pcp.Raw{Block: payload}, pcp.TypeU64, pcp.TypeDouble)
	fmt.Println(a.Float64(), err)
	_, err = pcp.Extract(pcp.Raw{Block: payload}, pcp.TypeU64, pcp.Type32)
	fmt.Println(errors.Is(err, pcp.ErrTrunc), errors.Is(err, pcp.ErrRange), err)
	// Output:
	// 1.099511627776e+12 <nil>
	// true true pcp: value: Truncation in value conversion at offset 0
}

func ExampleConvScale() {
	// 3 000 000 bytes per second in Kbyte per minute.
	in := pcp.NewUnits(1, -1, 0, pcp.SpaceByte, pcp.TimeSec, 0)
	out := pcp.NewUnits(1, -1, 0, pcp.SpaceKByte, pcp.TimeMin, 0)
	a, err := pcp.ConvScale(pcp.AtomUint64(3_000_000), in, out)
	fmt.Println(a.Uint64(), out, err)
	// Output: 175781 Kbyte / min <nil>
}

func ExampleCode() {
	// The status word of an ERROR PDU, as pmcd refused a store.
	var err error = pcp.Code(-12387)
	fmt.Println(err)
	fmt.Println(errors.Is(err, pcp.ErrPermission), pcp.ErrPermission.Name())
	fmt.Println(pcp.Code(-104).Message()) // an errno of the peer
	// Output:
	// No permission to perform requested operation
	// true PM_ERR_PERMISSION
	// Connection reset by peer
}

func ExampleFromV1() {
	// pmcd's first ERROR PDU carries its status in the V1 numbering.
	fmt.Println(pcp.FromV1(-1042).Name(), pcp.ToV1(pcp.ErrPermission))
	// Output: PM_ERR_PERMISSION -1042
}
