package abi_test

import (
	"fmt"
	"github.com/perfwire/perfwire/schema"
	"os"

	"github.com/perfwire/perfwire/wasm/abi"
	"github.com/tinylib/msgp/msgp"
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

// A stream fed piece by piece gives the PDUs as they complete, and a bad
// handle is an error value with a stable kind.
func ExamplePDUSession() {
	in, err := os.ReadFile("../testdata/conv01.client.bin")
	if err != nil {
		panic(err)
	}
	s := abi.NewPDUSession(0)
	n := 0
	for off := 0; off < len(in); off += 10 {
		n += len(s.Feed(in[off:min(off+10, len(in))]).PDUs)
	}
	end := s.End()
	fmt.Println(n, "PDUs, error:", end.Error)

	var e schema.ErrorResult
	b := abi.NewModule().Call(abi.OpKPITable, 42, 0)
	if _, err := e.UnmarshalMsg(b); err != nil {
		panic(err)
	}
	fmt.Println(e.Error.Kind, msgp.NextType(b))
	// Output:
	// 25 PDUs, error: <nil>
	// bad_handle map
}
