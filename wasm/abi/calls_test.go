package abi

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfwire/perfwire/render"
	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

// put copies b into a new buffer of m, as a host does with alloc.
func put(m *Module, b []byte) uint32 {
	h := m.Alloc(uint32(len(b)))
	buf, _ := m.Buffer(h)
	copy(buf, b)
	return h
}

// built reports whether this build carries op o's format.
func built(o Op) bool { return calls[o] != nil || opens[o] != nil }

// TestCallsWriteTheWriters: each buffer call through Module returns the
// bytes of the render writer it runs, on the captures, and a call of a
// format this build leaves out (a one-format build: tags kpi, pcp, mmv,
// dlt, archive) answers not_built.
func TestCallsWriteTheWriters(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	pdus, events, mmv := read("conv05.server.bin"), read("conv05.pdu0.HIGHRES_RESULT.29.0.136.inst0.EVENT.bin"), read("sample2.mmv")
	kpi, labelSet := read("kpi-odd.dlt"), read("parse-10.json")
	serve := schema.MMVServeInput{Files: []schema.MMVImage{{Path: "/tmp/sample2.mmv", Name: "sample2.mmv", Image: mmv}}}
	req, _ := serve.MarshalMsg(nil)
	merge := msgp.AppendString(msgp.AppendString(msgp.AppendArrayHeader(nil, 2), `{"a":1,"b":2}`), `{"a":3}`)
	m := NewModule()
	for _, c := range []struct {
		o    Op
		in   []byte
		n    uint32
		want []byte
	}{
		{OpPDUDecode, pdus, 0, render.AppendPDUs(nil, pdus, 0)},
		{OpPDUDecode, pdus, 100, render.AppendPDUs(nil, pdus, 100)},
		{OpEventsDecode, events, 0, render.AppendEvents(nil, events)},
		{OpLabelsCanon, labelSet, 0, render.AppendLabels(nil, labelSet, false)},
		{OpLabelsMerge, merge, 0, render.AppendLabels(nil, merge, true)},
		{OpMMVRead, mmv, 0, render.AppendMMV(nil, mmv, false)},
		{OpMMVRead, mmv, 1, render.AppendMMV(nil, mmv, true)},
		{OpMMVServe, req, 0, render.AppendMMVServe(nil, &serve)},
		{OpDLTDecode, kpi, 0, render.AppendDLTDecode(nil, kpi)},
		{OpKPIDecode, kpi, 0, render.AppendKPIMessages(nil, kpi, 0, 0)},
		{OpKPIDecode, kpi, 7, render.AppendKPIMessages(nil, kpi, 7, 0)},
	} {
		want := c.want
		if !built(c.o) {
			want = schema.AppendFailure(nil, schema.ErrNotBuilt)
		}
		h := put(m, c.in)
		if got := m.Call(c.o, h, c.n); !bytes.Equal(got, want) {
			t.Errorf("%s(%d): %d bytes, its writer %d", Calls[c.o].Export, c.n, len(got), len(want))
		}
		m.Free(h)
	}
}

// TestOpensNotBuilt: a session-opening call of a format this build leaves
// out returns handle 0, and its session calls answer not_built.
func TestOpensNotBuilt(t *testing.T) {
	m := NewModule()
	h := put(m, []byte("x"))
	for o := range numOps {
		if built(o) {
			continue
		}
		if o.Opens() {
			if s := m.Open(o, h, 0); s != 0 {
				t.Errorf("%s opened session %d", Calls[o].Export, s)
			}
			continue
		}
		if got, want := m.Call(o, h, 0), schema.AppendFailure(nil, schema.ErrNotBuilt); Calls[o].Args == ArgIn || Calls[o].Args == ArgInN {
			if !bytes.Equal(got, want) {
				t.Errorf("%s: % x, want not_built", Calls[o].Export, got)
			}
		}
	}
}
