package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/perfwire/perfwire/render"
	"github.com/perfwire/perfwire/schema"
	"github.com/perfwire/perfwire/wasm/abi"
)

// TestPDUStreamInModule feeds every PCP capture of ../testdata to a
// pdu_stream session one byte at a time and compares the PDUs and the
// error with the native pdu_decode of the whole stream, then cut short.
func TestPDUStreamInModule(t *testing.T) {
	h := newHost(t)
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "conv*.*[rt].bin"))
	if len(files) != 6 {
		t.Fatalf("%d captures", len(files))
	}
	for _, name := range files {
		whole := readFile(t, filepath.Base(name))
		for _, in := range [][]byte{whole, whole[:len(whole)-3]} {
			s := h.call("pdu_stream", 0)
			if s == 0 {
				t.Fatal("pdu_stream gave no session")
			}
			got := schema.PDUStream{PDUs: []schema.Raw{}}
			for i := range in {
				hin := h.put(in[i : i+1])
				var r schema.PDUStream
				if _, err := r.UnmarshalMsg(h.take(h.call("pdu_feed", s, hin))); err != nil {
					t.Fatal(err)
				}
				h.call("free", hin)
				got.PDUs = append(got.PDUs, r.PDUs...)
			}
			var end schema.PDUStream
			if _, err := end.UnmarshalMsg(h.take(h.call("pdu_end", s))); err != nil {
				t.Fatal(err)
			}
			h.call("free", s)
			got.Error = end.Error
			native := render.DecodePDUs(in, 0)
			if !bytes.Equal(marshal(t, &got), marshal(t, &native)) {
				t.Errorf("%s (%d bytes): fed 1 byte at a time, %d PDUs and %+v; whole, %d and %+v",
					filepath.Base(name), len(in), len(got.PDUs), got.Error, len(native.PDUs), native.Error)
			}
		}
	}
}

// TestMemoryBounded: 10,000 failing calls (bad handles, garbage to every
// decoder, sessions opened and freed) leave linear memory within twice
// its size after the first 10.
func TestMemoryBounded(t *testing.T) {
	h := newHost(t)
	garbage := bytes.Repeat([]byte("DLT\x01\x00\x00\x70\x01{\"a\":"), 64)
	bad := func(i int) {
		in := h.put(garbage[:i%len(garbage)])
		for _, c := range abi.Calls {
			switch c.Args {
			case abi.ArgIn:
				h.take(h.call(c.Export, in))
			case abi.ArgInN:
				h.take(h.call(c.Export, in, uint64(i%3)))
			}
		}
		h.call("free", in)
		h.take(h.call("kpi_step", 0xfffff, 1))
		s := h.call("pdu_stream", 0)
		in = h.put(garbage[:i%len(garbage)])
		h.take(h.call("pdu_feed", s, in))
		h.call("free", in)
		h.call("free", s)
	}
	for i := range 10 {
		bad(i)
	}
	after10 := h.mod.Memory().Size()
	for i := range 10000 {
		bad(i)
	}
	if after := h.mod.Memory().Size(); after > 2*after10 {
		t.Errorf("linear memory %d bytes after 10,000 bad calls, %d after 10", after, after10)
	} else {
		t.Logf("linear memory %d bytes after 10 bad calls, %d after 10,000", after10, after)
	}
}
