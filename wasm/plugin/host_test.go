package main

import (
	"context"
	"iter"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// moduleBytes is the wasip1 reactor, built once per test binary; cache
// keeps wazero's compilation of it across the tests' runtimes.
var (
	moduleBytes []byte
	cache       = wazero.NewCompilationCache()
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "perfwire-plugin")
	if err != nil {
		panic(err)
	}
	out := filepath.Join(dir, "perfwire.wasm")
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, ".")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		os.Stderr.Write(b)
		panic("building the wasip1 module: " + err.Error())
	}
	moduleBytes, err = os.ReadFile(out)
	os.RemoveAll(dir)
	if err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

// host is one instance of the module in wazero, driven the way a host
// written in any language would.
type host struct {
	t   testing.TB
	ctx context.Context
	rt  wazero.Runtime
	mod api.Module
}

func newHost(t testing.TB) *host {
	t.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCompilationCache(cache))
	t.Cleanup(func() { rt.Close(ctx) })
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	mod, err := rt.InstantiateWithConfig(ctx, moduleBytes, wazero.NewModuleConfig().WithStartFunctions("_initialize"))
	if err != nil {
		t.Fatalf("instantiate: %v", err)
	}
	return &host{t: t, ctx: ctx, rt: rt, mod: mod}
}

// call invokes an export; a trap fails the test, since the ABI promises
// errors as values.
func (h *host) call(name string, args ...uint64) uint64 {
	h.t.Helper()
	f := h.mod.ExportedFunction(name)
	if f == nil {
		h.t.Fatalf("no export %q", name)
	}
	res, err := f.Call(h.ctx, args...)
	if err != nil {
		h.t.Fatalf("%s trapped: %v", name, err)
	}
	if len(res) == 0 {
		return 0
	}
	return res[0]
}

// put copies b into a new module buffer and returns its handle.
func (h *host) put(b []byte) uint64 {
	h.t.Helper()
	hd := h.call("alloc", uint64(len(b)))
	if hd == 0 {
		h.t.Fatalf("alloc(%d) failed", len(b))
	}
	ptr := h.call("buf_ptr", hd)
	if !h.mod.Memory().Write(uint32(ptr), b) {
		h.t.Fatalf("write %d bytes at %#x out of range", len(b), ptr)
	}
	return hd
}

// take copies result buffer hd out of the module's memory and frees it.
func (h *host) take(hd uint64) []byte {
	h.t.Helper()
	if hd == 0 {
		h.t.Fatal("call returned handle 0")
	}
	ptr, n := h.call("buf_ptr", hd), h.call("buf_len", hd)
	view, ok := h.mod.Memory().Read(uint32(ptr), uint32(n))
	if !ok {
		h.t.Fatalf("result %d: %d bytes at %#x out of range", hd, n, ptr)
	}
	out := append([]byte(nil), view...)
	h.call("free", hd)
	return out
}

// run puts in, calls export name with its handle and extra args, and
// returns the result bytes.
func (h *host) run(name string, in []byte, args ...uint64) []byte {
	h.t.Helper()
	hd := h.put(in)
	defer h.call("free", hd)
	return h.take(h.call(name, append([]uint64{hd}, args...)...))
}

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func newScanner(in []byte) dlt.Scanner { return dlt.NewScanner(in, dlt.Options{}) }

func pduwireAll(in []byte) iter.Seq2[pduwire.PDU, error] { return pduwire.All(in, pduwire.Options{}) }
