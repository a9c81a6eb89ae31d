//go:build !kpi && !mmv && !dlt && !archive

package abi_test

import (
	"fmt"
	"os"

	"github.com/perfwire/perfwire/schema"
	"github.com/perfwire/perfwire/wasm/abi"
)

// A host's view of the ABI, run natively: bytes into a buffer, a call,
// the MessagePack result decoded with the schema's types. The offsets and
// types are those of the capture's listing (testdata/conv01.pdus.txt).
func ExampleModule() {
	in, err := os.ReadFile("../testdata/conv01.client.bin")
	if err != nil {
		panic(err)
	}
	m := abi.NewModule()
	h := m.Keep(in)
	var res schema.PDUStream
	if _, err := res.UnmarshalMsg(m.Call(abi.OpPDUDecode, h, 0)); err != nil {
		panic(err)
	}
	m.Free(h)
	var head schema.PDUHeader
	for _, p := range res.PDUs[:5] {
		if _, err := head.UnmarshalMsg(p); err != nil {
			panic(err)
		}
		fmt.Println(head.Offset, head.Type)
	}
	fmt.Println(len(res.PDUs), "PDUs, error:", res.Error)
	// Output:
	// 0 CREDS
	// 20 PMNS_TRAVERSE
	// 52 PMNS_NAMES
	// 232 PROFILE
	// 260 HIGHRES_FETCH
	// 25 PDUs, error: <nil>
}
