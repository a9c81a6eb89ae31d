package abi_test

import (
	"fmt"

	"github.com/perfwire/perfwire/schema"
	"github.com/perfwire/perfwire/wasm/abi"
	"github.com/tinylib/msgp/msgp"
)

// A bad handle is an error value with a stable kind.
func ExampleModule_Call() {
	var e schema.ErrorResult
	b := abi.NewModule().Call(abi.OpKPITable, 42, 0)
	if _, err := e.UnmarshalMsg(b); err != nil {
		panic(err)
	}
	fmt.Println(e.Error.Kind, msgp.NextType(b))
	// Output:
	// bad_handle map
}
