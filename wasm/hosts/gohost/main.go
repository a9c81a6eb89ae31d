// Command gohost is a minimal Go host for perfwire.wasm (wasip1) on
// wazero: it runs pdu_decode on a file and writes the MessagePack result
// to stdout. Usage: gohost perfwire.wasm STREAM.bin > result.msgpack
package main

import (
	"context"
	"os"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

func main() {
	ctx := context.Background()
	wasm, _ := os.ReadFile(os.Args[1])
	input, _ := os.ReadFile(os.Args[2])
	rt := wazero.NewRuntime(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt) // the 18 WASI imports
	m, err := rt.InstantiateWithConfig(ctx, wasm, wazero.NewModuleConfig().WithStartFunctions("_initialize"))
	if err != nil {
		panic(err)
	}
	call := func(name string, args ...uint64) uint32 {
		r, err := m.ExportedFunction(name).Call(ctx, args...)
		if err != nil {
			panic(err) // a trap: a bug in the module
		}
		return uint32(append(r, 0)[0])
	}
	h := call("alloc", uint64(len(input)))
	m.Memory().Write(call("buf_ptr", uint64(h)), input)
	r := call("pdu_decode", uint64(h), 0) // limit 0: the default
	call("free", uint64(h))
	out, _ := m.Memory().Read(call("buf_ptr", uint64(r)), call("buf_len", uint64(r)))
	os.Stdout.Write(out) // a view of memory: copy it before the next call
	call("free", uint64(r))
}
