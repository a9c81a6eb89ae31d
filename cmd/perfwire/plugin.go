package main

import (
	"context"
	"encoding/hex"
	"errors"
	"os"

	"github.com/perfwire/perfwire/schema"
	"github.com/perfwire/perfwire/wasm/abi"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tinylib/msgp/msgp"
)

// plugin, when --plugin names a wasip1 module, is where the decoding
// commands (pdu, kpi) run their decode: inside the module, through
// wazero, as any host of wasm/ABI.md would. Their output, exit status and
// messages are those of the native run.
var plugin *wasmPlugin

// compiled keeps wazero's compilation of a module across the runs of one
// process (the tests run many).
var compiled = wazero.NewCompilationCache()

// wasmPlugin is one instance of perfwire.wasm in wazero.
type wasmPlugin struct {
	ctx context.Context
	rt  wazero.Runtime
	mod api.Module
}

// loadPlugin instantiates the wasip1 module in file and checks its ABI
// version.
func loadPlugin(file string) (*wasmPlugin, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCompilationCache(compiled))
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	mod, err := rt.InstantiateWithConfig(ctx, b, wazero.NewModuleConfig().WithStartFunctions("_initialize"))
	if err != nil {
		rt.Close(ctx)
		return nil, err
	}
	p := &wasmPlugin{ctx: ctx, rt: rt, mod: mod}
	if v, err := p.export("abi_version"); err != nil || v != abi.Version {
		rt.Close(ctx)
		return nil, errors.New(file + ": not a perfwire plugin of ABI version 3")
	}
	return p, nil
}

func (p *wasmPlugin) close() { p.rt.Close(p.ctx) }

// export calls a function of the module; a missing export or a trap is
// an error (a trap is a bug in the module).
func (p *wasmPlugin) export(name string, args ...uint64) (uint32, error) {
	f := p.mod.ExportedFunction(name)
	if f == nil {
		return 0, errors.New("plugin: no export " + name)
	}
	r, err := f.Call(p.ctx, args...)
	if err != nil {
		return 0, errors.New("plugin: " + name + " trapped: " + err.Error())
	}
	return uint32(append(r, 0)[0]), nil
}

// put copies b into a new module buffer.
func (p *wasmPlugin) put(b []byte) (uint32, error) {
	h, err := p.export("alloc", uint64(len(b)))
	if err != nil || h == 0 {
		return 0, errors.Join(errors.New("plugin: alloc failed"), err)
	}
	ptr, err := p.export("buf_ptr", uint64(h))
	if err != nil || !p.mod.Memory().Write(ptr, b) {
		return 0, errors.Join(errors.New("plugin: buffer out of memory's range"), err)
	}
	return h, nil
}

func (p *wasmPlugin) free(h uint32) { p.export("free", uint64(h)) }

// The ops the commands run in a plugin, named here so that only the
// plugin runner imports wasm/abi.
const (
	opPDUDecode    = abi.OpPDUDecode
	opEventsDecode = abi.OpEventsDecode
	opLabelsCanon  = abi.OpLabelsCanon
	opLabelsMerge  = abi.OpLabelsMerge
	opMMVServe     = abi.OpMMVServe
	opDLTDecode    = abi.OpDLTDecode
	opKPIDecode    = abi.OpKPIDecode
	opKPIStream    = abi.OpKPIStream
	opKPIFeed      = abi.OpKPIFeed
	opKPICut       = abi.OpKPICut
	opKPIEnd       = abi.OpKPIEnd
	opKPITable     = abi.OpKPITable
	opArchiveOpen  = abi.OpArchiveOpen
	opArchiveNext  = abi.OpArchiveNext
	// kpiFramingShift is where kpi_decode's second argument holds the
	// framing.
	kpiFramingShift = abi.KPIFramingShift
)

// op is a call of the ABI.
type op = abi.Op

// args are the u32 arguments of op as its export takes them.
func args(op abi.Op, a, b uint32) []uint64 {
	switch abi.Calls[op].Args {
	case abi.ArgIn, abi.ArgN, abi.ArgSession, abi.ArgInOpen:
		return []uint64{uint64(a)}
	}
	return []uint64{uint64(a), uint64(b)}
}

// call runs op and decodes its MessagePack result into res.
func (p *wasmPlugin) call(op abi.Op, a, b uint32, res msgp.Unmarshaler) error {
	r, err := p.export(abi.Calls[op].Export, args(op, a, b)...)
	if err != nil {
		return err
	}
	defer p.free(r)
	ptr, err := p.export("buf_ptr", uint64(r))
	if err != nil {
		return err
	}
	n, err := p.export("buf_len", uint64(r))
	if err != nil {
		return err
	}
	view, ok := p.mod.Memory().Read(ptr, n)
	if !ok {
		return errors.New("plugin: result out of memory's range")
	}
	_, err = res.UnmarshalMsg(view) // copies what it keeps
	return err
}

// callIn puts in, runs op on it with n, and frees it.
func (p *wasmPlugin) callIn(op abi.Op, in []byte, n uint32, res msgp.Unmarshaler) error {
	h, err := p.put(in)
	if err != nil {
		return err
	}
	defer p.free(h)
	return p.call(op, h, n, res)
}

// open runs an op that opens a session.
func (p *wasmPlugin) open(op abi.Op, a uint32) (uint32, error) {
	s, err := p.export(abi.Calls[op].Export, uint64(a))
	if err == nil && s == 0 {
		err = errors.New("plugin: " + abi.Calls[op].Export + " opened no session: the module lacks the call or refused its input")
	}
	return s, err
}

// pluginError is a decode error reported by the plugin: its text is the
// message the native decoder's error has.
type pluginError struct{ e *schema.Error }

func (e *pluginError) Error() string { return e.e.Message }

func errOf(e *schema.Error) error {
	if e == nil {
		return nil
	}
	return &pluginError{e}
}

// rawBytes returns the exact bytes of a schema text field: its hex twin
// when the bytes were not UTF-8, else the text.
func rawBytes(text, hexOf string) []byte {
	if hexOf != "" {
		if b, err := hex.DecodeString(hexOf); err == nil {
			return b
		}
	}
	return []byte(text)
}
