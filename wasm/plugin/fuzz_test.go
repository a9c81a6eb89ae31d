package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/perfwire/perfwire/schema"
	"github.com/perfwire/perfwire/wasm/abi"
)

// FuzzWasmCalls drives the wasip1 module itself in wazero, as a host
// does: arbitrary bytes into a buffer, every call that takes one (with
// the numeric argument n), then a stream session fed the bytes in two
// pieces. No call may trap, and every result must be one MessagePack map
// whose error, if any, is not an internal one (a caught panic). Seeds are
// the captures of ../testdata, cut short.
func FuzzWasmCalls(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*"))
	for i, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 2048)], uint32(i%3))
	}
	h := newHost(f)
	f.Fuzz(func(t *testing.T, in []byte, n uint32) {
		h.t = t
		check := func(name string, res []byte) {
			var e schema.ErrorResult
			if rest, err := e.UnmarshalMsg(res); err != nil || len(rest) != 0 {
				t.Fatalf("%s: result is not one map: %v", name, err)
			}
			if e.Error != nil && e.Error.Kind == schema.ErrInternal.Code() {
				t.Fatalf("%s: %+v", name, *e.Error)
			}
		}
		for _, c := range abi.Calls {
			switch c.Args {
			case abi.ArgIn:
				check(c.Export, h.run(c.Export, in))
			case abi.ArgInN:
				check(c.Export, h.run(c.Export, in, uint64(n)))
			}
		}
		for _, open := range []string{"kpi_stream", "pdu_stream"} {
			s := h.call(open, uint64(n%3))
			if s == 0 {
				t.Fatalf("%s(%d) refused", open, n%3)
			}
			feed, end := "kpi_feed", "kpi_end"
			if open == "pdu_stream" {
				feed, end = "pdu_feed", "pdu_end"
			}
			for _, piece := range [][]byte{in[:len(in)/2], in[len(in)/2:]} {
				hin := h.put(piece)
				check(feed, h.take(h.call(feed, s, hin)))
				h.call("free", hin)
			}
			check(end, h.take(h.call(end, s)))
			h.call("free", s)
		}
	})
}
